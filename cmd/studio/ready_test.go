package main

import (
	"net/http"
	"os"
	"path/filepath"
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

// TestReadyzWaitsForTheSite: on the first start with a site URL, /readyz
// is 503 while the rewritten pages are compressed (a page asked meanwhile
// waits for them), then 200; what was compressed is kept in --data for the
// next start.
func TestReadyzWaitsForTheSite(t *testing.T) {
	data := t.TempDir()
	// One core: the compression outlasts the first /readyz however fast the machine.
	base, _ := startStudio(t, []string{"GOMAXPROCS=1"}, "--addr", "127.0.0.1:0", "--data", data, "--site-url", "https://studio.example")
	if resp, body := get(t, base+"/readyz"); resp.StatusCode != 503 || !strings.Contains(body, `"site":"compressing`) {
		t.Errorf("GET /readyz at start = %d %s, want 503 naming the site", resp.StatusCode, body)
	}
	if resp, body := get(t, base+"/studio"); resp.StatusCode != 200 || !strings.Contains(body, `"https://studio.example/studio"`) {
		t.Errorf("GET /studio = %d, rebased: %v", resp.StatusCode, strings.Contains(body, "https://studio.example/"))
	}
	var resp *http.Response
	var body string
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if resp, body = get(t, base+"/readyz"); resp.StatusCode == 200 || time.Now().After(deadline) {
			break
		}
	}
	if resp.StatusCode != 200 || !strings.Contains(body, `"site":"ok"`) {
		t.Errorf("GET /readyz once the site is ready = %d %s", resp.StatusCode, body)
	}
	if entries, err := os.ReadDir(filepath.Join(data, siteCacheDir)); err != nil || len(entries) == 0 {
		t.Errorf("--data/%s: %d files, %v; want the compressed pages", siteCacheDir, len(entries), err)
	}
}
