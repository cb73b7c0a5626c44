// Package redirecttest checks, in tests, that a redirect cannot take a
// browser to another host.
package redirecttest

import (
	"net/url"
	"strings"
	"testing"
)

// CheckSameSite fails t when loc, the Location of a redirect answered by
// https://site.example/, could take a browser off that site: it must begin
// with one "/" followed by neither "/" nor "\", also once percent-decoded;
// hold no space or control character (a browser drops tabs and line breaks),
// nor in its path a backslash (read as "/") or a non-ASCII character; and
// resolve to the same host.
func CheckSameSite(t testing.TB, loc string) {
	t.Helper()
	p, _, _ := strings.Cut(loc, "?")
	if strings.ContainsFunc(loc, func(r rune) bool { return r <= ' ' || r == 0x7f }) ||
		strings.ContainsFunc(p, func(r rune) bool { return r == '\\' || r >= 0x7f }) {
		t.Errorf("Location %q holds a space or a control character, or its path a backslash or a non-ASCII character", loc)
	}
	decoded, err := url.PathUnescape(p)
	if err != nil {
		t.Errorf("Location %q: %v", loc, err)
	}
	for _, s := range []string{loc, decoded} {
		if !strings.HasPrefix(s, "/") || strings.HasPrefix(s, "//") || strings.HasPrefix(s, `/\`) {
			t.Errorf("Location %q (decoded %q) does not begin with one / followed by neither / nor \\", loc, decoded)
		}
	}
	base, _ := url.Parse("https://site.example/")
	ref, err := url.Parse(loc)
	if err != nil {
		t.Fatalf("Location %q: %v", loc, err)
	}
	if got := base.ResolveReference(ref); got.Scheme != "https" || got.Host != "site.example" || got.User != nil {
		t.Errorf("Location %q resolves to %q, off the site", loc, got)
	}
}
