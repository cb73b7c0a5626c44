package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestHealthcheck(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/healthz":
		case "/readyz":
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"changefeed":"not listening","status":"unavailable"}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer up.Close()
	for _, tt := range []struct {
		url   string
		ready bool
		code  int
		want  string
	}{
		{up.URL + "/healthz", false, 0, ""},
		{up.URL + "/elsewhere", false, 1, "404"},
		{"http://127.0.0.1:1/healthz", false, 1, "refused"},
		{up.URL + "/healthz", true, 1, `503 Service Unavailable {"changefeed":"not listening"`},
	} {
		args := []string{"healthcheck", "--url", tt.url}
		if tt.ready {
			args = append(args, "--ready")
		}
		var out, errOut bytes.Buffer
		if code := run(context.Background(), args, noEnv, &out, &errOut); code != tt.code || !strings.Contains(errOut.String(), tt.want) {
			t.Errorf("%s: code %d, stderr %q; want %d and %q", tt.url, code, errOut.String(), tt.code, tt.want)
		}
	}
}
