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
		if r.URL.Path != "/healthz" {
			http.NotFound(w, r)
		}
	}))
	defer up.Close()
	for _, tt := range []struct {
		url  string
		code int
		want string
	}{
		{up.URL + "/healthz", 0, ""},
		{up.URL + "/elsewhere", 1, "404"},
		{"http://127.0.0.1:1/healthz", 1, "refused"},
	} {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), []string{"healthcheck", "--url", tt.url}, noEnv, &out, &errOut); code != tt.code || !strings.Contains(errOut.String(), tt.want) {
			t.Errorf("%s: code %d, stderr %q; want %d and %q", tt.url, code, errOut.String(), tt.code, tt.want)
		}
	}
}
