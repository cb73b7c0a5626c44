package server_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"studio/internal/server"
)

// fakeSite answers every path with a page, standing in for package site.
var fakeSite = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/missing" {
		http.NotFound(w, r)
		return
	}
	_, _ = io.WriteString(w, "page")
})

func TestHealthz(t *testing.T) {
	h := server.New(server.Deps{Site: fakeSite})
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/healthz", nil))
	if w.Code != 200 || strings.TrimSpace(w.Body.String()) != "ok" {
		t.Errorf("GET /healthz = %d %q, want 200 ok", w.Code, w.Body.String())
	}
}

func TestSecurityHeadersOnEveryResponse(t *testing.T) {
	h := server.New(server.Deps{Site: fakeSite})
	want := map[string]string{
		"X-Content-Type-Options": "nosniff",
		"Referrer-Policy":        "strict-origin-when-cross-origin",
		"X-Frame-Options":        "DENY",
	}
	for _, target := range []string{"/", "/healthz", "/missing", "/assets/x.js"} {
		t.Run(target, func(t *testing.T) {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest("GET", target, nil))
			for k, v := range want {
				if got := w.Header().Get(k); got != v {
					t.Errorf("%s = %q, want %q", k, got, v)
				}
			}
			csp := w.Header().Get("Content-Security-Policy")
			for _, part := range []string{"default-src 'self'", "script-src 'self'", "frame-ancestors 'none'", "object-src 'none'"} {
				if !strings.Contains(csp, part) {
					t.Errorf("CSP %q lacks %q", csp, part)
				}
			}
			if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
				t.Errorf("CSP %q is not strict", csp)
			}
			pp := w.Header().Get("Permissions-Policy")
			for _, feature := range []string{"camera=()", "microphone=()", "geolocation=()"} {
				if !strings.Contains(pp, feature) {
					t.Errorf("Permissions-Policy %q lacks %q", pp, feature)
				}
			}
		})
	}
}

// TestHSTS: Strict-Transport-Security is sent over HTTPS: on a TLS
// connection, or when a trusted proxy says the client used HTTPS; never over
// plain HTTP, and never because an untrusted client says so.
func TestHSTS(t *testing.T) {
	h := server.New(server.Deps{Site: fakeSite, Functions: server.FunctionsConfig{
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}})
	for _, tt := range []struct {
		name, remote, proto string
		tls                 bool
		want                bool
	}{
		{name: "TLS connection", remote: "203.0.113.7:5000", tls: true, want: true},
		{name: "plain HTTP", remote: "203.0.113.7:5000"},
		{name: "trusted proxy says https", remote: "10.1.2.3:5000", proto: "https", want: true},
		{name: "trusted proxy says HTTPS, then another hop", remote: "10.1.2.3:5000", proto: "HTTPS, http", want: true},
		{name: "trusted proxy says http", remote: "10.1.2.3:5000", proto: "http"},
		{name: "trusted proxy says nothing", remote: "10.1.2.3:5000"},
		{name: "untrusted client says https", remote: "203.0.113.7:5000", proto: "https"},
		{name: "untrusted client in IPv6 says https", remote: "[2001:db8::1]:5000", proto: "https"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tt.remote
			if tt.proto != "" {
				r.Header.Set("X-Forwarded-Proto", tt.proto)
			}
			if tt.tls {
				r.TLS = &tls.ConnectionState{}
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			got := w.Header().Get("Strict-Transport-Security")
			if want := map[bool]string{true: "max-age=63072000"}[tt.want]; got != want {
				t.Errorf("Strict-Transport-Security = %q, want %q", got, want)
			}
		})
	}
}

func TestPanicsBecome500(t *testing.T) {
	h := server.New(server.Deps{Site: http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") })})
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
	if w.Code != http.StatusInternalServerError {
		t.Errorf("status = %d, want 500", w.Code)
	}
}

// TestServeFinishesInFlightRequestsOnShutdown: after the context ends, a
// request already running completes, new connections are refused, and Serve
// returns nil.
func TestServeFinishesInFlightRequestsOnShutdown(t *testing.T) {
	started := make(chan struct{})
	release := make(chan struct{})
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-release
		_, _ = io.WriteString(w, "finished")
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- server.Serve(ctx, ln, slow, discardLogger(), server.Options{}) }()

	url := "http://" + ln.Addr().String() + "/"
	type result struct {
		body string
		err  error
	}
	got := make(chan result, 1)
	go func() {
		resp, err := http.Get(url)
		if err != nil {
			got <- result{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		got <- result{string(b), err}
	}()
	<-started
	cancel()

	// Shutdown closes the listener at once: new connections are refused.
	deadline := time.Now().Add(2 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", ln.Addr().String(), 100*time.Millisecond)
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("still accepting connections after shutdown began")
		}
		time.Sleep(10 * time.Millisecond)
	}

	select {
	case err := <-served:
		t.Fatalf("Serve returned (%v) before the in-flight request finished", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	if r := <-got; r.err != nil || r.body != "finished" {
		t.Fatalf("in-flight request: %q, %v", r.body, r.err)
	}
	if err := <-served; err != nil {
		t.Fatalf("Serve = %v, want nil after a clean shutdown", err)
	}
}

func TestAccessLogLine(t *testing.T) {
	var buf bytes.Buffer
	h := server.New(server.Deps{Site: fakeSite, Logger: slog.New(slog.NewJSONHandler(&buf, nil))})
	for _, target := range []string{"/about", "/missing"} {
		r := httptest.NewRequest("GET", target, nil)
		r.RemoteAddr = "192.0.2.7:4711"
		h.ServeHTTP(httptest.NewRecorder(), r)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d log lines, want one per request:\n%s", len(lines), buf.String())
	}
	for i, want := range []struct {
		path   string
		status float64
		bytes  float64
	}{{"/about", 200, 4}, {"/missing", 404, 19}} {
		var got map[string]any
		if err := json.Unmarshal([]byte(lines[i]), &got); err != nil {
			t.Fatalf("line %d is not JSON: %v\n%s", i+1, err, lines[i])
		}
		if got["msg"] != "request" || got["level"] != "INFO" || got["method"] != "GET" || got["path"] != want.path ||
			got["status"] != want.status || got["bytes"] != want.bytes || got["remote"] != "192.0.2.7:4711" {
			t.Errorf("line %d = %v, want GET %s %v %v bytes from 192.0.2.7:4711", i+1, got, want.path, want.status, want.bytes)
		}
		if d, ok := got["duration"].(float64); !ok || d < 0 {
			t.Errorf("line %d: duration %v", i+1, got["duration"])
		}
		if _, ok := got["time"].(string); !ok {
			t.Errorf("line %d: no time", i+1)
		}
	}
}
