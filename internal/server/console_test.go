package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"studio/internal/fault"
	"studio/internal/server"
)

// echoSite answers with the path it was asked for, so a test sees which
// page the console's routes served.
var echoSite = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	_, _ = io.WriteString(w, r.URL.Path+"?"+r.URL.RawQuery)
})

func TestConsolePathsAnswerTheShell(t *testing.T) {
	h := server.New(server.Deps{Site: echoSite})
	tests := []struct {
		name, target, want string
	}{
		{"root", "/admin", "/admin?"},
		{"a screen", "/admin/inbox", "/admin?"},
		{"a message, with the query kept", "/admin/inbox/0b7c?filter=spam", "/admin?filter=spam"},
		{"the mailed sign-in link", "/admin?token_hash=abc&type=magiclink", "/admin?token_hash=abc&type=magiclink"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest("GET", tt.target, nil))
			if got := w.Body.String(); got != tt.want {
				t.Errorf("GET %s served %q, want %q", tt.target, got, tt.want)
			}
			if got := w.Header().Get("Cross-Origin-Opener-Policy"); got != "same-origin" {
				t.Errorf("Cross-Origin-Opener-Policy = %q, want same-origin", got)
			}
			if got := w.Header().Get("X-Robots-Tag"); got != "noindex, nofollow" {
				t.Errorf("X-Robots-Tag = %q, want noindex, nofollow", got)
			}
		})
	}
}

func TestPublicPagesHaveNoOpenerPolicy(t *testing.T) {
	h := server.New(server.Deps{Site: echoSite})
	for _, target := range []string{"/", "/contact", "/administration", "/admins/x"} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", target, nil))
		if got := w.Header().Get("Cross-Origin-Opener-Policy"); got != "" {
			t.Errorf("GET %s: Cross-Origin-Opener-Policy = %q, want none (decision 0007)", target, got)
		}
		if got := w.Body.String(); got != target+"?" {
			t.Errorf("GET %s served %q, want the page itself", target, got)
		}
	}
}

type fakeKeys struct {
	key string
	err error
}

func (k fakeKeys) AnonKey(context.Context) (string, error) { return k.key, k.err }

func TestConsoleConfig(t *testing.T) {
	tests := []struct {
		name       string
		keys       server.AnonKeySource
		wantStatus int
		wantKey    string
	}{
		{"the anon key", fakeKeys{key: "eyJ.anon.key"}, http.StatusOK, "eyJ.anon.key"},
		{"store down", fakeKeys{err: fault.Mark(fault.Unavailable, errors.New("connection refused"))}, http.StatusServiceUnavailable, ""},
		{"a bug", fakeKeys{err: errors.New("sealed value is damaged")}, http.StatusInternalServerError, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			server.ConsoleConfigHandler(tt.keys).ServeHTTP(w, httptest.NewRequest("GET", "/admin/config.json", nil))
			if w.Code != tt.wantStatus {
				t.Fatalf("status = %d, want %d", w.Code, tt.wantStatus)
			}
			if got := w.Header().Get("Cache-Control"); got != "no-store" {
				t.Errorf("Cache-Control = %q, want no-store", got)
			}
			if tt.wantKey == "" {
				return
			}
			var cfg struct{ AnonKey string }
			if err := json.Unmarshal(w.Body.Bytes(), &cfg); err != nil || cfg.AnonKey != tt.wantKey {
				t.Errorf("body %q: anonKey = %q (%v), want %q", w.Body.String(), cfg.AnonKey, err, tt.wantKey)
			}
		})
	}
}

func TestConsoleConfigWithoutSignIn(t *testing.T) {
	h := server.New(server.Deps{Site: echoSite})
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/admin/config.json", nil))
	if w.Code != http.StatusServiceUnavailable {
		t.Errorf("GET /admin/config.json without the auth service = %d, want 503", w.Code)
	}
}
