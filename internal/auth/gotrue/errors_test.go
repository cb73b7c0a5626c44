package gotrue_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"studio/internal/auth/gotrue"
	"studio/internal/fault"
)

// TestErrorFormat: the error shape follows X-Supabase-Api-Version, and
// x-sb-error-code is always set.
func TestErrorFormat(t *testing.T) {
	e := gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "Verify requires a verification type")
	older := map[string]any{"code": 400.0, "error_code": "validation_failed", "msg": "Verify requires a verification type"}
	newer := map[string]any{"code": "validation_failed", "message": "Verify requires a verification type"}
	tests := []struct {
		name       string
		version    string
		want       map[string]any
		wantEchoed string
	}{
		{"no header", "", older, ""},
		{"older date", "2023-12-31", older, ""},
		{"not a date", "latest", older, ""},
		{"2024-01-01", "2024-01-01", newer, "2024-01-01"},
		{"later date", "2025-06-30", newer, "2024-01-01"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/auth/v1/verify", nil)
			if tt.version != "" {
				r.Header.Set("X-Supabase-Api-Version", tt.version)
			}
			w := httptest.NewRecorder()
			gotrue.WriteError(w, r, e)
			if w.Code != 400 {
				t.Fatalf("status = %d", w.Code)
			}
			var body map[string]any
			if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, body); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
			if got := w.Header().Get("x-sb-error-code"); got != "validation_failed" {
				t.Errorf("x-sb-error-code = %q", got)
			}
			if got := w.Header().Get("X-Supabase-Api-Version"); got != tt.wantEchoed {
				t.Errorf("X-Supabase-Api-Version = %q, want %q", got, tt.wantEchoed)
			}
		})
	}
}

// TestKindError: an unavailable store is 503 request_timeout with the wait
// it tells as Retry-After; a bug is 500 with nothing of the internals.
func TestKindError(t *testing.T) {
	down := fault.WithRetryAfter(fault.Mark(fault.Unavailable, errors.New("store down")), 7*time.Second)
	e := gotrue.KindError(fault.Unavailable, down)
	w := httptest.NewRecorder()
	gotrue.WriteError(w, httptest.NewRequest("GET", "/", nil), e)
	if w.Code != 503 || e.Code != gotrue.CodeRequestTimeout || w.Header().Get("Retry-After") != "7" {
		t.Errorf("unavailable: %d %s, Retry-After %q; want 503 request_timeout, 7", w.Code, e.Code, w.Header().Get("Retry-After"))
	}
	if e := gotrue.KindError(fault.Internal, errors.New("SQL: no such column secret")); e.Status != 500 || e.Message != "Unexpected failure, please try again" {
		t.Errorf("internal: %d %q", e.Status, e.Message)
	}
}
