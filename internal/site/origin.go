package site

import (
	"bytes"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
)

// BuildOrigin is the origin the web build writes into absolute links
// (siteUrl in web/app/content/site.ts; a test keeps the two equal).
const BuildOrigin = "http://localhost:8080"

// Options adapt a built site to where it is deployed.
type Options struct {
	// Origin is the public origin of the site, scheme://host[:port], used in
	// absolute links (canonical URLs, share tags, feeds, the sitemap).
	// Empty means BuildOrigin.
	Origin string
	// Captcha, when set, is the CAPTCHA widget the pages show (captcha.go):
	// their marker tells the page's script the widget, and their policy
	// admits its origins. nil: no CAPTCHA, and the policy admits no other
	// origin.
	Captcha *CaptchaWidget
	// CaptchaPages are the URL paths of the pages that show Captcha (the
	// console's, when only its sign-in needs one); empty: every page (the
	// public forms need it too, --captcha-forms).
	CaptchaPages []string
	// CacheDir keeps the compressed variants of the files rewritten for
	// these options between starts (compress.go); empty: none.
	CacheDir string
	// Logger hears when the site is ready, and of a cache it cannot write;
	// nil: nothing is logged.
	Logger *slog.Logger
}

// ParseOrigin checks a site URL given on the command line and returns it as
// an origin without a trailing slash.
func ParseOrigin(raw string) (string, error) {
	u, err := url.Parse(strings.TrimRight(raw, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("site URL %q: want http(s)://host[:port]", raw)
	}
	if u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", fmt.Errorf("site URL %q: want only scheme and host, no path, query or user", raw)
	}
	return u.Scheme + "://" + u.Host, nil
}

// textual reports whether a content type is text in which links may appear.
func textual(contentType string) bool {
	return strings.HasPrefix(contentType, "text/") || strings.Contains(contentType, "xml") || strings.Contains(contentType, "json")
}

// rebase rewrites BuildOrigin to origin in every text file, whose variants
// are then made again. It runs once at start-up, and only when the site is
// deployed at another origin than it was built for.
func (s *Site) rebase(origin string) {
	old := []byte(BuildOrigin)
	for _, files := range []map[string]*file{s.pages, s.files} {
		for _, f := range files {
			if !textual(f.contentType) || !bytes.Contains(f.identity, old) {
				continue
			}
			f.rewrite(bytes.ReplaceAll(f.identity, old, []byte(origin)))
		}
	}
}

// rewrite replaces f's bytes; their variants are made at the end of New.
func (f *file) rewrite(identity []byte) {
	f.identity, f.etag = identity, etagOf(identity)
	f.br, f.gz, f.stale = nil, nil, true
}
