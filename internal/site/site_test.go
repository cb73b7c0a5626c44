package site_test

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"encoding/xml"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/andybalholm/brotli"
	gocmp "github.com/google/go-cmp/cmp"

	"studio/internal/redirect/redirecttest"
	"studio/internal/site"
)

const (
	homeScript = `document.documentElement.classList.add("js")`
	homeStyle  = `body{margin:0}`
	homeData   = `{"@type":"Organization"}`
)

func testFS() fstest.MapFS {
	page := func(body string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte("<!DOCTYPE html><html><body>" + body + "</body></html>")}
	}
	return fstest.MapFS{
		"index.html":                 {Data: []byte(`<!DOCTYPE html><html><head><script>` + homeScript + `</script><style>` + homeStyle + `</style><script type="application/ld+json">` + homeData + `</script><script type="module" src="/assets/app-1a2b3c.js"></script></head><body>Home</body></html>`)},
		"index.html.br":              {Data: []byte("br-home")},
		"index.html.gz":              {Data: []byte("gz-home")},
		"studio/index.html":          page("Studio"),
		"products/aurion/index.html": page("AURION"),
		"products/404/index.html":    page("Product Not Found"),
		"contact/sent/index.html":    {Data: []byte(`<!DOCTYPE html><html><head><meta name="robots" content="noindex"></head><body>Message Received!</body></html>`)},
		"404/index.html":             page("Page Not Found"),
		"assets/app-1a2b3c.js":       {Data: []byte("console.log(1)")},
		"assets/app-1a2b3c.js.gz":    {Data: []byte("gz-js")},
		"favicon.svg":                {Data: []byte("<svg/>")},
		"downloads/model.csv":        {Data: []byte("a,b\n1,2\n")},
	}
}

func newSite(t testing.TB) *site.Site {
	t.Helper()
	s, err := site.New(testFS(), site.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func do(h http.Handler, method, target string, headers map[string]string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, nil)
	for k, v := range headers {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestStatusAndBody(t *testing.T) {
	s := newSite(t)
	tests := []struct {
		name, target string
		wantStatus   int
		wantBody     string
		wantLocation string
	}{
		{name: "home", target: "/", wantStatus: 200, wantBody: "Home"},
		{name: "page", target: "/studio", wantStatus: 200, wantBody: "Studio"},
		{name: "product page", target: "/products/aurion", wantStatus: 200, wantBody: "AURION"},
		{name: "trailing slash redirects", target: "/studio/", wantStatus: 308, wantLocation: "/studio"},
		{name: "redirect keeps the query", target: "/studio/?a=1", wantStatus: 308, wantLocation: "/studio?a=1"},
		{name: "index.html redirects", target: "/studio/index.html", wantStatus: 308, wantLocation: "/studio"},
		{name: "root index.html redirects", target: "/index.html", wantStatus: 308, wantLocation: "/"},
		{name: "unknown path", target: "/no-such-page", wantStatus: 404, wantBody: "Page Not Found"},
		{name: "unknown nested path", target: "/studio/nope/deeper", wantStatus: 404, wantBody: "Page Not Found"},
		{name: "unknown product", target: "/products/datasync", wantStatus: 404, wantBody: "Product Not Found"},
		{name: "deeper than a product", target: "/products/aurion/extra", wantStatus: 404, wantBody: "Page Not Found"},
		{name: "not-found page itself", target: "/404", wantStatus: 404, wantBody: "Page Not Found"},
		{name: "products not-found page itself", target: "/products/404", wantStatus: 404, wantBody: "Product Not Found"},
		{name: "asset", target: "/assets/app-1a2b3c.js", wantStatus: 200, wantBody: "console.log(1)"},
		{name: "missing asset", target: "/assets/gone-000000.js", wantStatus: 404},
		{name: "public file", target: "/favicon.svg", wantStatus: 200, wantBody: "<svg/>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := do(s, "GET", tt.target, nil)
			if w.Code != tt.wantStatus {
				t.Fatalf("status = %d, want %d", w.Code, tt.wantStatus)
			}
			if !strings.Contains(w.Body.String(), tt.wantBody) {
				t.Errorf("body %q does not contain %q", w.Body.String(), tt.wantBody)
			}
			if got := w.Header().Get("Location"); got != tt.wantLocation {
				t.Errorf("Location = %q, want %q", got, tt.wantLocation)
			}
		})
	}
}

// TestNoRedirectToAnotherHost: a path whose canonical form a browser would
// read as another host (/\host, //host, /%09/host) is not found; a backslash
// deeper in the path is only a character of the path, and is redirected.
func TestNoRedirectToAnotherHost(t *testing.T) {
	s := newSite(t)
	tests := []struct {
		name, target string
		wantStatus   int
		wantLocation string
	}{
		{name: "escaped backslash", target: "/%5Cevil.example/?token_hash=x&type=magiclink", wantStatus: 404},
		{name: "backslash", target: `/\evil.example/`, wantStatus: 404},
		{name: "two escaped backslashes", target: "/%5C%5Cevil.example/", wantStatus: 404},
		{name: "backslash after a dot", target: `/.\evil.example/`, wantStatus: 404},
		{name: "index.html after a backslash", target: "/%5Cevil.example/index.html", wantStatus: 404},
		{name: "two slashes", target: "//evil.example/", wantStatus: 404},
		{name: "escaped slashes", target: "/%2F%2Fevil.example/", wantStatus: 404},
		{name: "slash and escaped slash", target: "/%2Fevil.example/", wantStatus: 404},
		{name: "tab between slashes", target: "/%09/evil.example/", wantStatus: 404},
		{name: "newline between slashes", target: "/%0A/evil.example/", wantStatus: 404},
		{name: "carriage return and backslash", target: "/%0D%5Cevil.example/", wantStatus: 404},
		{name: "backslash deeper is a path of the site", target: "/studio/%5Cevil.example/", wantStatus: 308, wantLocation: "/studio/%5Cevil.example"},
		{name: "query with a scheme stays in the query", target: "/studio/?next=https://evil.example", wantStatus: 308, wantLocation: "/studio?next=https://evil.example"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := do(s, "GET", tt.target, nil)
			if w.Code != tt.wantStatus {
				t.Fatalf("status = %d, want %d", w.Code, tt.wantStatus)
			}
			if got := w.Header().Get("Location"); got != tt.wantLocation {
				t.Errorf("Location = %q, want %q", got, tt.wantLocation)
			}
		})
	}
}

// FuzzCanonicalRedirect: whatever the path and query asked for, a redirect
// of the site stays on it.
func FuzzCanonicalRedirect(f *testing.F) {
	for _, seed := range [][2]string{
		{"/studio/", "a=1"}, {"/index.html", ""}, {`/\evil.example/`, "token_hash=x"}, {"//evil.example/", ""},
		{"///evil.example/index.html", ""}, {"/\t/evil.example/", ""}, {"/\r\\evil.example/", ""}, {"/./\\evil.example/", ""},
	} {
		f.Add(seed[0], seed[1])
	}
	s := newSite(f)
	f.Fuzz(func(t *testing.T, path, query string) {
		r := httptest.NewRequest("GET", "/", nil)
		r.URL.Path, r.URL.RawQuery = path, query
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if loc := w.Header().Get("Location"); w.Code/100 == 3 || loc != "" {
			redirecttest.CheckSameSite(t, loc)
		}
	})
}

func TestCacheControl(t *testing.T) {
	s := newSite(t)
	tests := []struct{ name, target, want string }{
		{"html page", "/studio", "no-cache"},
		{"404 page", "/nope", "no-cache"},
		{"hashed asset", "/assets/app-1a2b3c.js", "public, max-age=31536000, immutable"},
		{"public file", "/favicon.svg", "public, max-age=3600"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := do(s, "GET", tt.target, nil).Header().Get("Cache-Control"); got != tt.want {
				t.Errorf("Cache-Control = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestETagAndNotModified(t *testing.T) {
	s := newSite(t)
	first := do(s, "GET", "/studio", nil)
	etag := first.Header().Get("ETag")
	if !strings.HasPrefix(etag, `"`) || len(etag) < 10 {
		t.Fatalf("ETag = %q, want a quoted validator", etag)
	}
	tests := []struct {
		name, ifNoneMatch string
		want              int
	}{
		{"matching", etag, http.StatusNotModified},
		{"weak form matches", "W/" + etag, http.StatusNotModified},
		{"in a list", `"other", ` + etag, http.StatusNotModified},
		{"star", "*", http.StatusNotModified},
		{"stale", `"stale"`, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := do(s, "GET", "/studio", map[string]string{"If-None-Match": tt.ifNoneMatch})
			if w.Code != tt.want {
				t.Fatalf("status = %d, want %d", w.Code, tt.want)
			}
			if tt.want == http.StatusNotModified {
				if w.Body.Len() != 0 {
					t.Error("a 304 has no body")
				}
				if w.Header().Get("ETag") != etag {
					t.Errorf("304 ETag = %q, want %q", w.Header().Get("ETag"), etag)
				}
			}
		})
	}
	t.Run("a 404 is never 304", func(t *testing.T) {
		nf := do(s, "GET", "/nope", nil)
		w := do(s, "GET", "/nope", map[string]string{"If-None-Match": nf.Header().Get("ETag")})
		if w.Code != http.StatusNotFound {
			t.Errorf("status = %d, want 404", w.Code)
		}
	})
}

func TestEncodingNegotiation(t *testing.T) {
	s := newSite(t)
	tests := []struct {
		name, target, accept   string
		wantEncoding, wantBody string
	}{
		{"brotli preferred", "/", "gzip, deflate, br", "br", "br-home"},
		{"gzip only", "/", "gzip", "gzip", "gz-home"},
		{"br refused with q=0", "/", "br;q=0, gzip", "gzip", "gz-home"},
		{"wildcard", "/", "*", "br", "br-home"},
		{"wildcard but not br", "/", "br;q=0, *", "gzip", "gz-home"},
		{"none", "/", "", "", "<!DOCTYPE html>"},
		{"identity only", "/", "identity", "", "<!DOCTYPE html>"},
		{"asset without br variant", "/assets/app-1a2b3c.js", "br, gzip", "gzip", "gz-js"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := do(s, "GET", tt.target, map[string]string{"Accept-Encoding": tt.accept})
			if got := w.Header().Get("Content-Encoding"); got != tt.wantEncoding {
				t.Errorf("Content-Encoding = %q, want %q", got, tt.wantEncoding)
			}
			if got := w.Header().Get("Vary"); got != "Accept-Encoding" {
				t.Errorf("Vary = %q, want Accept-Encoding", got)
			}
			if !strings.HasPrefix(w.Body.String(), tt.wantBody) {
				t.Errorf("body = %q, want prefix %q", w.Body.String(), tt.wantBody)
			}
		})
	}
	t.Run("each encoding has its own ETag", func(t *testing.T) {
		tags := map[string]bool{}
		for _, ae := range []string{"", "gzip", "br"} {
			tags[do(s, "GET", "/", map[string]string{"Accept-Encoding": ae}).Header().Get("ETag")] = true
		}
		if len(tags) != 3 {
			t.Errorf("ETags %v, want 3 different ones", tags)
		}
	})
	t.Run("no Vary on files without variants", func(t *testing.T) {
		if got := do(s, "GET", "/favicon.svg", nil).Header().Get("Vary"); got != "" {
			t.Errorf("Vary = %q, want none", got)
		}
	})
}

func TestHeadAndMethods(t *testing.T) {
	s := newSite(t)
	head := do(s, "HEAD", "/studio", nil)
	if head.Code != 200 || head.Body.Len() != 0 || head.Header().Get("Content-Length") == "" {
		t.Errorf("HEAD: status %d, body %d bytes, Content-Length %q", head.Code, head.Body.Len(), head.Header().Get("Content-Length"))
	}
	post := do(s, "POST", "/studio", nil)
	if post.Code != http.StatusMethodNotAllowed || post.Header().Get("Allow") != "GET, HEAD" {
		t.Errorf("POST: status %d, Allow %q", post.Code, post.Header().Get("Allow"))
	}
}

func TestContentTypesAndDownloads(t *testing.T) {
	s := newSite(t)
	tests := []struct{ target, wantType, wantDisposition string }{
		{"/", "text/html; charset=utf-8", ""},
		{"/assets/app-1a2b3c.js", "text/javascript; charset=utf-8", ""},
		{"/favicon.svg", "image/svg+xml", ""},
		{"/downloads/model.csv", "text/csv; charset=utf-8", `attachment; filename="model.csv"`},
	}
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			h := do(s, "GET", tt.target, nil).Header()
			if got := h.Get("Content-Type"); got != tt.wantType {
				t.Errorf("Content-Type = %q, want %q", got, tt.wantType)
			}
			if got := h.Get("Content-Disposition"); got != tt.wantDisposition {
				t.Errorf("Content-Disposition = %q, want %q", got, tt.wantDisposition)
			}
		})
	}
}

func TestPageCSPAllowsItsInlineScriptsOnly(t *testing.T) {
	s := newSite(t)
	csp := do(s, "GET", "/", nil).Header().Get("Content-Security-Policy")
	sum := sha256.Sum256([]byte(homeScript))
	want := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	if !strings.Contains(csp, "script-src 'self' "+want) {
		t.Errorf("CSP %q does not allow the inline script %s", csp, want)
	}
	if strings.Contains(csp, "unsafe-inline") {
		t.Errorf("CSP %q allows unsafe-inline", csp)
	}
	if !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("CSP %q lacks frame-ancestors 'none'", csp)
	}
	other := do(s, "GET", "/studio", nil).Header().Get("Content-Security-Policy")
	if strings.Contains(other, want) {
		t.Errorf("a page without the script admits its hash: %q", other)
	}
}

// A JSON data block (structured data) is never run, so the policy leaves its
// hash out: every hash lengthens the page's first response.
func TestPageCSPLeavesOutDataBlocks(t *testing.T) {
	csp := do(newSite(t), "GET", "/", nil).Header().Get("Content-Security-Policy")
	sum := sha256.Sum256([]byte(homeData))
	if h := base64.StdEncoding.EncodeToString(sum[:]); strings.Contains(csp, h) {
		t.Errorf("CSP %q admits the JSON data block's hash %s", csp, h)
	}
	if n := strings.Count(csp, "sha256-"); n != 2 {
		t.Errorf("CSP %q has %d hashes, want 2 (the script and the style)", csp, n)
	}
}

// A page's inline <style> (its critical CSS) is admitted by its hash, and only
// on that page; style attributes stay refused.
func TestPageCSPAllowsItsInlineStyleOnly(t *testing.T) {
	s := newSite(t)
	sum := sha256.Sum256([]byte(homeStyle))
	want := "style-src 'self' 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "';"
	if csp := do(s, "GET", "/", nil).Header().Get("Content-Security-Policy"); !strings.Contains(csp, want) {
		t.Errorf("CSP %q does not allow the inline style: want %q", csp, want)
	}
	if other := do(s, "GET", "/studio", nil).Header().Get("Content-Security-Policy"); !strings.Contains(other, "style-src 'self';") {
		t.Errorf("a page without an inline style admits one: %q", other)
	}
}

func TestPages(t *testing.T) {
	got := newSite(t).Pages()
	want := []string{"/", "/contact/sent", "/products/aurion", "/studio"}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("Pages() mismatch (-want +got):\n%s", diff)
	}
}

func TestNewNeedsANotFoundPage(t *testing.T) {
	fsys := testFS()
	delete(fsys, "404/index.html")
	if _, err := site.New(fsys, site.Options{}); err == nil {
		t.Error("New succeeded without a /404 page")
	}
}

func TestSitemapAndRobots(t *testing.T) {
	s := newSite(t)
	sm := do(s, "GET", "/sitemap.xml", nil)
	if sm.Code != 200 || sm.Header().Get("Content-Type") != "application/xml; charset=utf-8" {
		t.Fatalf("sitemap: %d %s", sm.Code, sm.Header().Get("Content-Type"))
	}
	var doc struct {
		URLs []string `xml:"url>loc"`
	}
	if err := xml.Unmarshal(sm.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	// /contact/sent asks not to be indexed: it is served but not listed.
	want := []string{site.BuildOrigin + "/", site.BuildOrigin + "/products/aurion", site.BuildOrigin + "/studio"}
	if diff := gocmp.Diff(want, doc.URLs); diff != "" {
		t.Errorf("sitemap URLs (-want +got):\n%s", diff)
	}
	robots := do(s, "GET", "/robots.txt", nil).Body.String()
	if !strings.Contains(robots, "Sitemap: "+site.BuildOrigin+"/sitemap.xml") {
		t.Errorf("robots.txt = %q", robots)
	}
}

func TestOriginRewritesAbsoluteLinks(t *testing.T) {
	fsys := testFS()
	page := []byte(`<html><head><link rel="canonical" href="` + site.BuildOrigin + `/studio"/></head><body>Studio</body></html>`)
	fsys["studio/index.html"] = &fstest.MapFile{Data: page}
	fsys["studio/index.html.gz"] = &fstest.MapFile{Data: []byte("stale")}
	s, err := site.New(fsys, site.Options{Origin: "https://studio.example"})
	if err != nil {
		t.Fatal(err)
	}
	for _, ae := range []string{"", "gzip", "br"} {
		t.Run("encoding "+cmp.Or(ae, "identity"), func(t *testing.T) {
			w := do(s, "GET", "/studio", map[string]string{"Accept-Encoding": ae})
			body := decode(t, w.Header().Get("Content-Encoding"), w.Body.Bytes())
			if !strings.Contains(body, `href="https://studio.example/studio"`) || strings.Contains(body, site.BuildOrigin) {
				t.Errorf("body not rebased: %s", body)
			}
		})
	}
	if got := do(s, "GET", "/sitemap.xml", nil).Body.String(); !strings.Contains(got, "<loc>https://studio.example/studio</loc>") {
		t.Errorf("sitemap not rebased: %s", got)
	}
}

func decode(t *testing.T, encoding string, body []byte) string {
	t.Helper()
	var r io.Reader = bytes.NewReader(body)
	switch encoding {
	case "gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	case "br":
		r = brotli.NewReader(r)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestParseOrigin(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"https://meridian.studio", "https://meridian.studio", true},
		{"https://meridian.studio/", "https://meridian.studio", true},
		{"http://localhost:8080", "http://localhost:8080", true},
		{"meridian.studio", "", false},
		{"ftp://meridian.studio", "", false},
		{"https://meridian.studio/blog", "", false},
		{"https://user@meridian.studio", "", false},
	}
	for _, tt := range tests {
		got, err := site.ParseOrigin(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseOrigin(%q) = %q, %v; want %q, ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

// The web build writes siteUrl into absolute links; rebasing needs to know it.
func TestBuildOriginMatchesTheWebContent(t *testing.T) {
	src, err := os.ReadFile("../../web/app/content/site.ts")
	if err != nil {
		t.Fatal(err)
	}
	if want := `export const siteUrl = "` + site.BuildOrigin + `";`; !strings.Contains(string(src), want) {
		t.Errorf("web/app/content/site.ts lacks %s", want)
	}
}
