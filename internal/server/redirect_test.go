package server_test

import (
	"bufio"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"studio/internal/redirect/redirecttest"
	"studio/internal/server"
	"studio/internal/site"
	"studio/web"
)

// builtSite is the studio's handler over the real site build, made once.
var builtSite = sync.OnceValues(func() (http.Handler, error) {
	s, err := site.New(web.Site(), site.Options{})
	if err != nil {
		return nil, err
	}
	return server.New(server.Deps{Site: s, Logger: discardLogger()}), nil
})

// serveRaw answers the request line "GET target HTTP/1.1" as the server
// reads it off the wire, or reports that it cannot be read.
func serveRaw(t testing.TB, target string) (*httptest.ResponseRecorder, bool) {
	t.Helper()
	h, err := builtSite()
	if err != nil {
		t.Fatal(err)
	}
	r, err := http.ReadRequest(bufio.NewReader(strings.NewReader("GET " + target + " HTTP/1.1\r\nHost: site.example\r\n\r\n")))
	if err != nil {
		return nil, false
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w, true
}

// TestServerRedirectsStayOnSite: through every route (the router's cleaning
// of paths, the site's canonical paths, the console), a request path that a
// redirect would turn into another host is answered without one.
func TestServerRedirectsStayOnSite(t *testing.T) {
	for _, tt := range []struct {
		target       string
		wantStatus   int
		wantLocation string
	}{
		{"/studio/?a=1", 308, "/studio?a=1"},
		{"/studio/index.html", 308, "/studio"},
		{"/%5Cevil.example/?token_hash=x&type=magiclink", 404, ""},
		{`/\evil.example/?token_hash=x`, 404, ""},
		{"/%5C%5Cevil.example/", 404, ""},
		{"/%2F%2Fevil.example/", 404, ""},
		{"/%2F/evil.example/", 404, ""},
		{"/%09/evil.example/", 404, ""},
		{"/%0D%0A/evil.example/", 404, ""},
		{"/%09%5Cevil.example/", 404, ""},
		{"//evil.example/", 307, "/evil.example/"}, // the router's cleaning: a path of the site
		{"///evil.example/index.html", 307, "/evil.example/index.html"},
		{"/admin/%5Cevil.example/", 200, ""},
	} {
		t.Run(tt.target, func(t *testing.T) {
			w, ok := serveRaw(t, tt.target)
			if !ok {
				t.Fatalf("GET %s: the request cannot be read", tt.target)
			}
			if loc := w.Header().Get("Location"); w.Code != tt.wantStatus || loc != tt.wantLocation {
				t.Errorf("GET %s = %d to %q, want %d to %q", tt.target, w.Code, loc, tt.wantStatus, tt.wantLocation)
			}
		})
	}
}

// FuzzRedirectsStayOnSite: whatever the request target, a redirect of the
// studio's handler stays on the site.
func FuzzRedirectsStayOnSite(f *testing.F) {
	for _, seed := range []string{
		"/studio/", "/%5Cevil.example/?token_hash=x", `/\evil.example/`, "//evil.example/", "/%2F%2Fevil.example/",
		"/%09/evil.example/", "/./%5Cevil.example/", "/admin/", "/auth/v1", "/about/index.html?x=%5C",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, target string) {
		w, ok := serveRaw(t, target)
		if !ok {
			return
		}
		if loc := w.Header().Get("Location"); w.Code/100 == 3 || loc != "" {
			redirecttest.CheckSameSite(t, loc)
		}
	})
}
