package server_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"studio/internal/analytics"
	"studio/internal/contact"
	"studio/internal/server"
	"studio/internal/signup"
	"studio/internal/site"
	"studio/internal/store"
	"studio/internal/store/storetest"
	"studio/web"
)

var inlineStyle = regexp.MustCompile(`<style>([^<]*)</style>`)

// TestEveryPageCountsItsView: every public page's one inline style (which
// the CSP admits by its hash) lays out the box whose background is
// analytics.SeenPath, unless the visitor declined cookies; the console's
// pages do not.
func TestEveryPageCountsItsView(t *testing.T) {
	h, pages := publicPages(t)
	rule := `:not([data-cookie-consent=declined])>body::after{content:"";position:fixed;background:url(` + analytics.SeenPath + `)}`
	for _, p := range append(pages, "/admin", "/admin/inbox") {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, p, nil))
		if isConsole(p) {
			if strings.Contains(w.Body.String(), analytics.SeenPath+")") {
				t.Errorf("%s, a console page, is counted", p)
			}
			continue
		}
		styles := inlineStyle.FindAllStringSubmatch(w.Body.String(), -1)
		if len(styles) != 1 || !strings.HasSuffix(styles[0][1], rule) {
			t.Errorf("%s: its inline style does not end with the rule that counts it", p)
			continue
		}
		sum := sha256.Sum256([]byte(styles[0][1]))
		if csp := w.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'") ||
			!strings.Contains(csp, "img-src 'self'") {
			t.Errorf("%s: the CSP %q refuses the style or its background", p, csp)
		}
	}
}

// TestSeenThroughTheServer: a page reached from another site, then shown,
// is a view from that site; a contact message sent is that visit's
// conversion; the pixel answers with analytics off too, and counts nothing.
func TestSeenThroughTheServer(t *testing.T) {
	db := storetest.MustOpen(t, store.Config{DataDir: t.TempDir()})
	counter := analytics.New(db, analytics.Config{Site: "http://studio.example"})
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); counter.Run(ctx) }()
	s, err := site.New(web.Site(), site.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := server.New(server.Deps{Site: s, Logger: discardLogger(), Analytics: counter,
		Contact: &contact.Service{Store: db}, Signup: &signup.Service{Store: db}})
	const ua = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15"
	do := func(method, target, referer, body string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, "http://studio.example"+target, strings.NewReader(body))
		r.RemoteAddr = "198.51.100.9:4000"
		r.Header.Set("User-Agent", ua)
		if referer != "" {
			r.Header.Set("Referer", referer)
		}
		if body != "" {
			r.Header.Set("Content-Type", "application/json")
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	if w := do("GET", "/studio?utm_campaign=spring", "https://search.example/?q=venture+studio", ""); w.Code != 200 {
		t.Fatalf("the page: %d", w.Code)
	}
	if w := do("GET", analytics.SeenPath, "http://studio.example/studio?utm_campaign=spring", ""); w.Code != 200 || w.Header().Get("Content-Type") != "image/gif" {
		t.Fatalf("%s: %d %s", analytics.SeenPath, w.Code, w.Header().Get("Content-Type"))
	}
	if w := do("POST", "/functions/v1/submit-contact", "http://studio.example/contact", validContact); w.Code != 200 {
		t.Fatalf("submit-contact: %d %s", w.Code, w.Body)
	}
	stop()
	<-done
	sum, err := db.AnalyticsSummary(context.Background(), analytics.Query{Since: time.Now().Add(-time.Hour), Until: time.Now().Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Views != 1 || len(sum.Sources) != 1 || sum.Sources[0].Source != "search.example" ||
		len(sum.Campaigns) != 1 || sum.Campaigns[0].Name != "spring" {
		t.Errorf("views %d, sources %+v, campaigns %+v; want 1 view from search.example in spring", sum.Views, sum.Sources, sum.Campaigns)
	}
	if g := sum.Conversions[0]; g.Goal != analytics.GoalContact || g.Count != 1 || g.Rate != 1 {
		t.Errorf("conversions %+v; want the contact message, by the one visitor", sum.Conversions)
	}

	off := server.New(server.Deps{Site: s, Logger: discardLogger()})
	w := httptest.NewRecorder()
	off.ServeHTTP(w, httptest.NewRequest(http.MethodGet, analytics.SeenPath, nil))
	if w.Code != 200 || w.Body.Len() != 43 || w.Header().Get("Cache-Control") != "no-store" {
		t.Errorf("with analytics off, %s answers %d, %d bytes, %q", analytics.SeenPath, w.Code, w.Body.Len(), w.Header().Get("Cache-Control"))
	}
}
