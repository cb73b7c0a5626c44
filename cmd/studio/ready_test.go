package main

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"studio/internal/store/storetest"
)

// TestReadyz: the binary's /readyz is 200 on SQLite and on a PostgreSQL it
// listens to, and 503 naming both parts (while /healthz stays 200) when its
// PostgreSQL cannot be reached.
func TestReadyz(t *testing.T) {
	tests := []struct {
		name        string
		databaseURL string
		status      int
		contains    []string
	}{
		{"sqlite", "", 200, []string{`"store":"ok"`, `"changefeed":"ok"`}},
		{"postgres", storetest.PostgresURL(t), 200, []string{`"store":"ok"`, `"changefeed":"ok"`}},
		{"postgres unreachable", "postgres://studio@127.0.0.1:1/none?connect_timeout=1", 503,
			[]string{`"status":"unavailable"`, `"changefeed":"not listening for other servers' changes"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, _ := startStudio(t, []string{"DATABASE_URL=" + tt.databaseURL}, "--addr", "127.0.0.1:0", "--data", t.TempDir())
			// The feed starts listening just after the server: wait for the answer wanted.
			var resp *http.Response
			var body string
			for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
				resp, body = get(t, base+"/readyz")
				if resp.StatusCode == tt.status || time.Now().After(deadline) {
					break
				}
			}
			if resp.StatusCode != tt.status {
				t.Errorf("GET /readyz = %d %s, want %d", resp.StatusCode, body, tt.status)
			}
			for _, want := range tt.contains {
				if !strings.Contains(body, want) {
					t.Errorf("GET /readyz = %s, lacks %s", body, want)
				}
			}
			if resp, _ := get(t, base+"/healthz"); resp.StatusCode != 200 {
				t.Errorf("GET /healthz = %d, want 200", resp.StatusCode)
			}
		})
	}
}
