package server_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"studio/internal/site"
	"studio/web"
)

// firstRoundTrip is about what a new connection's first round trip brings:
// an initial congestion window of 10 segments of some 1,460 bytes (RFC 6928).
const firstRoundTrip = 14_600

// stylesheetLink is a render-blocking stylesheet: a <link rel="stylesheet">
// in the head outside <noscript>, as the build writes it (a media query
// would make it not blocking; the build writes none).
var (
	stylesheetLink = regexp.MustCompile(`<link rel="stylesheet" href="([^"]+)">`)
	noscript       = regexp.MustCompile(`(?s)<noscript>.*?</noscript>`)
)

// TestFirstPaintFitsOneRoundTrip: what a public page's first paint waits
// for, as the studio serves it to a browser that accepts brotli (the status
// line, the headers and the body of the page, and of each render-blocking
// stylesheet its head links), fits in the first round trip of a new
// connection, so that a new visitor waits for no second one. The 404 page
// counts too. (make audit prints the same figure per route.)
func TestFirstPaintFitsOneRoundTrip(t *testing.T) {
	h, routes := publicPages(t)
	for _, route := range routes {
		t.Run(route, func(t *testing.T) {
			total, parts := firstPaintBytes(t, h, route)
			if total >= firstRoundTrip {
				t.Errorf("GET %s: the first paint waits for %d B (%s), want under %d", route, total, parts, firstRoundTrip)
			}
		})
	}
}

// firstPaintBytes returns the bytes the first paint of route waits for, and
// how they add up.
func firstPaintBytes(t *testing.T, h http.Handler, route string) (int, string) {
	t.Helper()
	total := wireBytes(serve(h, route, "br"))
	parts := []string{fmt.Sprintf("page %d", total)}
	head, _, _ := strings.Cut(body(t, h, route), "</head>")
	for _, m := range stylesheetLink.FindAllStringSubmatch(noscript.ReplaceAllString(head, ""), -1) {
		css := wireBytes(serve(h, m[1], "br"))
		total += css
		parts = append(parts, fmt.Sprintf("%s %d", m[1], css))
	}
	return total, strings.Join(parts, " + ")
}

// wireBytes is a response's size on the wire over HTTP/1.1: status line,
// headers (with the Date the server adds), blank line and body.
func wireBytes(w *httptest.ResponseRecorder) int {
	header := w.Header().Clone()
	if header.Get("Date") == "" {
		header.Set("Date", time.Now().UTC().Format(http.TimeFormat))
	}
	n := len(fmt.Sprintf("HTTP/1.1 %03d %s\r\n", w.Code, http.StatusText(w.Code)))
	for k, vs := range header {
		for _, v := range vs {
			n += len(k) + len(": ") + len(v) + len("\r\n")
		}
	}
	return n + len("\r\n") + w.Body.Len()
}

// body returns the page at target without content coding.
func body(t *testing.T, h http.Handler, target string) string {
	t.Helper()
	w := serve(h, target, "")
	if enc := w.Header().Get("Content-Encoding"); enc != "" {
		t.Fatalf("GET %s without Accept-Encoding: Content-Encoding %s", target, enc)
	}
	return w.Body.String()
}

func serve(h http.Handler, target, acceptEncoding string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodGet, target, nil)
	if acceptEncoding != "" {
		r.Header.Set("Accept-Encoding", acceptEncoding)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// publicPages is the studio's handler over the real build, and the paths of
// its public pages (not the staff console's, an app) with one that does not
// exist (the 404 page).
func publicPages(t *testing.T) (http.Handler, []string) {
	t.Helper()
	h, err := builtSite()
	if err != nil {
		t.Fatal(err)
	}
	s, err := site.New(web.Site(), site.Options{})
	if err != nil {
		t.Fatal(err)
	}
	routes := []string{"/no-such-page"}
	for _, p := range s.Pages() {
		if !isConsole(p) {
			routes = append(routes, p)
		}
	}
	if len(routes) < 20 {
		t.Fatalf("only %d routes: is web/build/client the built site?", len(routes))
	}
	return h, routes
}

func isConsole(path string) bool { return path == "/admin" || strings.HasPrefix(path, "/admin/") }
