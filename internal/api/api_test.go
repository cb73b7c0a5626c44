package api_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"studio/internal/api"
)

func TestSetRetryAfter(t *testing.T) {
	for _, tc := range []struct {
		name string
		wait time.Duration
		want int
		// header is the Retry-After set.
		header string
	}{
		{"whole seconds", 60 * time.Second, 60, "60"},
		{"a fraction rounds up", 1200 * time.Millisecond, 2, "2"},
		{"less than a second is one", time.Nanosecond, 1, "1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			got := api.SetRetryAfter(w, tc.wait)
			if got != tc.want {
				t.Errorf("SetRetryAfter(%v) = %d, want %d", tc.wait, got, tc.want)
			}
			if h := w.Header().Get("Retry-After"); h != tc.header {
				t.Errorf("Retry-After = %q, want %q", h, tc.header)
			}
		})
	}
}

func TestWriteJSON(t *testing.T) {
	w := httptest.NewRecorder()
	api.WriteJSON(w, http.StatusTeapot, map[string]string{"error": "<short & stout>"})
	res := w.Result()
	for header, want := range map[string]string{
		"Content-Type":  "application/json; charset=utf-8",
		"Cache-Control": "no-store",
	} {
		if got := res.Header.Get(header); got != want {
			t.Errorf("%s = %q, want %q", header, got, want)
		}
	}
	if res.StatusCode != http.StatusTeapot {
		t.Errorf("status = %d, want %d", res.StatusCode, http.StatusTeapot)
	}
	if got, want := w.Body.String(), `{"error":"\u003cshort \u0026 stout\u003e"}`+"\n"; got != want {
		t.Errorf("body = %q, want %q", got, want)
	}
}
