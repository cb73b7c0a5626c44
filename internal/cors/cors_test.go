package cors_test

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"
	"time"

	"studio/internal/cors"
)

var policy = cors.Policy{
	Origins:       []string{"https://console.test", "https://partner.test"},
	AllowMethods:  "GET, POST, OPTIONS",
	AllowHeaders:  "authorization, content-type",
	ExposeHeaders: "content-range",
	MaxAge:        10 * time.Minute,
}

// bare is the policy without the optional headers.
var bare = cors.Policy{Origins: []string{"https://console.test"}, AllowMethods: "POST, OPTIONS", AllowHeaders: "content-type"}

func TestAnnotate(t *testing.T) {
	for _, tt := range []struct {
		name    string
		policy  cors.Policy
		origins []string // the request's Origin headers
		want    http.Header
	}{
		{"an allowed origin", policy, []string{"https://partner.test"}, http.Header{
			"Access-Control-Allow-Origin":   {"https://partner.test"},
			"Access-Control-Expose-Headers": {"content-range"},
			"Vary":                          {"Origin"},
		}},
		{"no expose headers", bare, []string{"https://console.test"}, http.Header{
			"Access-Control-Allow-Origin": {"https://console.test"},
			"Vary":                        {"Origin"},
		}},
		{"another origin", policy, []string{"https://evil.test"}, http.Header{}},
		{"an allowed origin, but not exactly (case)", policy, []string{"https://Console.test"}, http.Header{}},
		{"an allowed origin with a path", policy, []string{"https://console.test/"}, http.Header{}},
		{"no origin", policy, nil, http.Header{}},
		{"the empty origin, never allowed", cors.Policy{Origins: []string{""}}, []string{""}, http.Header{}},
		{"no origins allowed", cors.Policy{}, []string{"https://console.test"}, http.Header{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/x", nil)
			for _, o := range tt.origins {
				r.Header.Add("Origin", o)
			}
			w := httptest.NewRecorder()
			tt.policy.Annotate(w, r)
			if got := w.Header(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("headers = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestAnnotateKeepsVary: Vary: Origin joins what the response varies on already.
func TestAnnotateKeepsVary(t *testing.T) {
	r := httptest.NewRequest("GET", "/x", nil)
	r.Header.Set("Origin", "https://console.test")
	w := httptest.NewRecorder()
	w.Header().Set("Vary", "Accept-Encoding")
	policy.Annotate(w, r)
	if got, want := w.Header().Values("Vary"), []string{"Accept-Encoding", "Origin"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Vary = %q, want %q", got, want)
	}
}

func TestPreflight(t *testing.T) {
	for _, tt := range []struct {
		name        string
		policy      cors.Policy
		origin      string
		wantAllowed bool
		wantStatus  int
		wantHeader  http.Header
	}{
		{"an allowed origin", policy, "https://console.test", true, http.StatusNoContent, http.Header{
			"Access-Control-Allow-Origin":   {"https://console.test"},
			"Access-Control-Allow-Methods":  {"GET, POST, OPTIONS"},
			"Access-Control-Allow-Headers":  {"authorization, content-type"},
			"Access-Control-Expose-Headers": {"content-range"},
			"Access-Control-Max-Age":        {"600"},
			"Vary":                          {"Origin"},
		}},
		{"no expose headers, no max age", bare, "https://console.test", true, http.StatusNoContent, http.Header{
			"Access-Control-Allow-Origin":  {"https://console.test"},
			"Access-Control-Allow-Methods": {"POST, OPTIONS"},
			"Access-Control-Allow-Headers": {"content-type"},
			"Vary":                         {"Origin"},
		}},
		// Refused: nothing written, so the caller's own error (a 403 here) is the answer.
		{"another origin", policy, "https://evil.test", false, http.StatusForbidden, http.Header{}},
		{"no origin", policy, "", false, http.StatusForbidden, http.Header{}},
		{"no origins allowed", cors.Policy{}, "https://console.test", false, http.StatusForbidden, http.Header{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("OPTIONS", "/x", nil)
			if tt.origin != "" {
				r.Header.Set("Origin", tt.origin)
			}
			r.Header.Set("Access-Control-Request-Method", "POST")
			w := httptest.NewRecorder()
			allowed := tt.policy.Preflight(w, r)
			if allowed != tt.wantAllowed {
				t.Errorf("Preflight = %v, want %v", allowed, tt.wantAllowed)
			}
			if !allowed {
				w.WriteHeader(http.StatusForbidden)
			}
			if w.Code != tt.wantStatus || w.Body.Len() != 0 {
				t.Errorf("answer = %d %q, want %d and no body", w.Code, w.Body, tt.wantStatus)
			}
			if got := w.Header(); !reflect.DeepEqual(got, tt.wantHeader) {
				t.Errorf("headers = %v, want %v", got, tt.wantHeader)
			}
		})
	}
}
