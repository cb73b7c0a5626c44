package site_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"studio/internal/site"
)

// rebasedFS is testFS with absolute links and the CAPTCHA's marker in
// pages, so that another site URL or a CAPTCHA rewrites (and compresses) them.
func rebasedFS() fstest.MapFS {
	fsys := testFS()
	for _, name := range []string{"studio/index.html", "products/aurion/index.html", "contact/sent/index.html"} {
		fsys[name] = &fstest.MapFile{Data: []byte(`<!DOCTYPE html><html><head><link rel="canonical" href="` +
			site.BuildOrigin + "/" + name + `"><meta name="studio-captcha" content="off"></head><body>` + strings.Repeat("A page that compresses well. ", 40) + `</body></html>`)}
	}
	return fsys
}

// made is a site ready to serve, and what it logged: how many files it
// compressed and how many it read from its cache.
type made struct {
	site                  *site.Site
	compressed, fromCache int
}

func makeSite(t *testing.T, fsys fstest.MapFS, opts site.Options) made {
	t.Helper()
	var logs bytes.Buffer
	opts.Logger = slog.New(slog.NewJSONHandler(&logs, nil))
	s, err := site.New(fsys, opts)
	if err != nil {
		t.Fatal(err)
	}
	<-s.Ready()
	var ready struct {
		Msg        string
		Compressed int
		FromCache  int `json:"from_cache"`
	}
	for line := range strings.Lines(logs.String()) {
		if err := json.Unmarshal([]byte(line), &ready); err != nil || ready.Msg == "site ready" {
			break
		}
	}
	if ready.Msg != "site ready" {
		t.Fatalf("no site ready in the logs: %s", logs.String())
	}
	return made{s, ready.Compressed, ready.FromCache}
}

// served is every response body of s for the paths, in each encoding.
func served(s *site.Site, paths ...string) map[string]string {
	bodies := map[string]string{}
	for _, p := range paths {
		for _, ae := range []string{"", "gzip", "br"} {
			w := do(s, "GET", p, map[string]string{"Accept-Encoding": ae})
			bodies[p+" "+ae] = w.Header().Get("Content-Encoding") + " " + w.Header().Get("Etag") + " " + w.Body.String()
		}
	}
	return bodies
}

var rebasedPaths = []string{"/studio", "/products/aurion", "/contact/sent", "/sitemap.xml", "/robots.txt", "/"}

// TestCompressedPagesAreKept: the first start with a site URL compresses
// what it rewrote and keeps it in the cache; the next reads it all from
// there and compresses nothing, serving the very bytes a site without a
// cache makes.
func TestCompressedPagesAreKept(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	opts := site.Options{Origin: "https://studio.example"}
	fresh := makeSite(t, rebasedFS(), opts)
	want := served(fresh.site, rebasedPaths...)
	if !strings.Contains(want["/studio br"], "br ") {
		t.Fatalf("/studio is not served in brotli: %q", want["/studio br"])
	}

	opts.CacheDir = dir
	first := makeSite(t, rebasedFS(), opts)
	if first.compressed != fresh.compressed || first.fromCache != 0 {
		t.Errorf("first start: compressed %d, %d from the cache; want %d, 0", first.compressed, first.fromCache, fresh.compressed)
	}
	second := makeSite(t, rebasedFS(), opts)
	if second.compressed != 0 || second.fromCache != fresh.compressed {
		t.Errorf("second start: compressed %d, %d from the cache; want 0, %d", second.compressed, second.fromCache, fresh.compressed)
	}
	for _, s := range []made{first, second} {
		sameAsServed(t, s.site, want)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2*fresh.compressed {
		t.Errorf("the cache holds %d files, want %d (a .br and a .gz per file)", len(entries), 2*fresh.compressed)
	}
}

// TestCacheOfAnotherSiteURLIsNotUsed: another site URL (or CAPTCHA)
// compresses again, and what the earlier one kept is removed.
func TestCacheOfAnotherSiteURLIsNotUsed(t *testing.T) {
	dir := t.TempDir()
	before := makeSite(t, rebasedFS(), site.Options{Origin: "https://studio.example", CacheDir: dir})
	after := makeSite(t, rebasedFS(), site.Options{Origin: "https://other.example", CacheDir: dir})
	if after.compressed != before.compressed || after.fromCache != 0 {
		t.Errorf("another site URL: compressed %d, %d from the cache; want %d, 0", after.compressed, after.fromCache, before.compressed)
	}
	if body := served(after.site, "/studio")["/studio "]; !strings.Contains(body, "https://other.example/") {
		t.Errorf("GET /studio = %s, want the new site URL in it", body)
	}
	captcha := &site.CaptchaWidget{Provider: "hcaptcha", SiteKey: "k", ScriptURL: "https://js.hcaptcha.com/1/api.js"}
	withCaptcha := makeSite(t, rebasedFS(), site.Options{Origin: "https://other.example", CacheDir: dir, Captcha: captcha})
	if withCaptcha.compressed == 0 {
		t.Error("a CAPTCHA rewrites pages, yet nothing was compressed")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2*(withCaptcha.compressed+withCaptcha.fromCache) {
		t.Errorf("the cache holds %d files, want only the %d of the last start", len(entries), 2*(withCaptcha.compressed+withCaptcha.fromCache))
	}
}

// TestCorruptCacheIsMadeAgain: a cached variant that does not decode to
// the file's bytes (truncated, or another file's) is not served; it is made
// again and the cache repaired.
func TestCorruptCacheIsMadeAgain(t *testing.T) {
	dir := t.TempDir()
	opts := site.Options{Origin: "https://studio.example", CacheDir: dir}
	want := served(makeSite(t, rebasedFS(), opts).site, rebasedPaths...)
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) < 6 {
		t.Fatalf("cache: %v, %v", entries, err)
	}
	// By name: a file's .br and .gz, then another's, and a third's.
	a := filepath.Join(dir, entries[0].Name())
	whole, _ := os.ReadFile(a)
	check(t, os.WriteFile(a, whole[:len(whole)/2], 0o600)) // truncated
	other, _ := os.ReadFile(filepath.Join(dir, entries[3].Name()))
	check(t, os.WriteFile(filepath.Join(dir, entries[5].Name()), other, 0o600)) // another file's, whole
	again := makeSite(t, rebasedFS(), opts)
	if again.compressed != 2 {
		t.Errorf("compressed %d files again, want the 2 whose variants were spoilt", again.compressed)
	}
	sameAsServed(t, again.site, want)
	if repaired, _ := os.ReadFile(a); !bytes.Equal(repaired, whole) {
		t.Error("the truncated variant was not written again")
	}
}

// TestRequestsWaitUntilReady: a site that is not ready makes its requests
// wait rather than answer without the compressed pages.
func TestRequestsWaitUntilReady(t *testing.T) {
	s, err := site.New(rebasedFS(), site.Options{Origin: "https://studio.example"})
	if err != nil {
		t.Fatal(err)
	}
	if w := do(s, "GET", "/studio", map[string]string{"Accept-Encoding": "br"}); w.Header().Get("Content-Encoding") != "br" {
		t.Errorf("GET /studio answered %d without its brotli variant", w.Code)
	}
	select {
	case <-s.Ready():
	default:
		t.Error("answered before the site was ready")
	}
}

// sameAsServed fails the test for each response of s that differs from want's.
func sameAsServed(t *testing.T, s *site.Site, want map[string]string) {
	t.Helper()
	for k, body := range served(s, rebasedPaths...) {
		if body != want[k] {
			t.Errorf("GET %s (Accept-Encoding) differs from a site's without a cache", k)
		}
	}
}

func check(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
