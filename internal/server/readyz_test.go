package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"studio/internal/server"
)

// TestReadyz: /readyz answers 200 while every part is up and 503 (with
// Retry-After and the part that is down) while one is not; /healthz stays
// 200 either way.
func TestReadyz(t *testing.T) {
	up := func(context.Context) error { return nil }
	down := func(context.Context) error { return errors.New("not listening") }
	tests := []struct {
		name   string
		checks []server.ReadyCheck
		status int
		body   map[string]string
	}{
		{"no checks", nil, 200, map[string]string{"status": "ok"}},
		{"all up", []server.ReadyCheck{{"store", up}, {"changefeed", up}}, 200,
			map[string]string{"status": "ok", "store": "ok", "changefeed": "ok"}},
		{"the feed down", []server.ReadyCheck{{"store", up}, {"changefeed", down}}, 503,
			map[string]string{"status": "unavailable", "store": "ok", "changefeed": "not listening"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := server.New(server.Deps{Site: fakeSite, ReadyChecks: tt.checks})
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest("GET", "/readyz", nil))
			var body map[string]string
			_ = json.Unmarshal(w.Body.Bytes(), &body)
			if w.Code != tt.status {
				t.Errorf("status %d, want %d", w.Code, tt.status)
			}
			if diff := cmp.Diff(tt.body, body); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
			if got, want := w.Header().Get("Retry-After") != "", tt.status == 503; got != want {
				t.Errorf("Retry-After %q on a %d", w.Header().Get("Retry-After"), w.Code)
			}
			w = httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest("GET", "/healthz", nil))
			if w.Code != 200 {
				t.Errorf("GET /healthz = %d, want 200", w.Code)
			}
		})
	}
}

// TestReadyzFlood: many /readyz at once do not each ask the store (the
// answer is shared for a moment).
func TestReadyzFlood(t *testing.T) {
	var asked atomic.Int32
	h := server.New(server.Deps{Site: fakeSite, ReadyChecks: []server.ReadyCheck{
		{"store", func(context.Context) error { asked.Add(1); return nil }},
	}})
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() { h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/readyz", nil)) })
	}
	wg.Wait()
	if n := asked.Load(); n >= 10 {
		t.Errorf("50 requests at once asked the store %d times, want a few at most", n)
	}
}
