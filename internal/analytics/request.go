package analytics

import (
	"net/http"
	"net/url"
	"strings"
	"unicode"
)

// SeenPath is the address a shown page fetches (SEEN_RULE in its inline
// style, web/scripts/critical-css.mjs), answered by Counter.Seen.
const SeenPath = "/seen"

// pixel is a transparent GIF of one pixel, the answer to SeenPath.
var pixel = []byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")

// optedOut reports the reason r asks not to be counted (Global Privacy
// Control, Do Not Track), or "".
func optedOut(r *http.Request) Reason {
	switch {
	case r.Header.Get("Sec-GPC") == "1":
		return ReasonGPC
	case r.Header.Get("DNT") == "1":
		return ReasonDNT
	}
	return ""
}

// isPrefetch reports whether r is a speculative fetch of a page the
// browser may never show.
func isPrefetch(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Sec-Purpose"), "prefetch") || r.Header.Get("Purpose") == "prefetch"
}

// externalSource is the host of r's referrer when it is another site
// ("www." dropped), else "".
func externalSource(r *http.Request) string {
	ref, err := url.Parse(r.Header.Get("Referer"))
	if err != nil || ref.Host == "" || strings.EqualFold(ref.Host, r.Host) {
		return ""
	}
	return strings.TrimPrefix(strings.ToLower(ref.Hostname()), "www.")
}

// shownPage is the page r's referrer names when it is a public page of this
// site: the page that fetched SeenPath.
func shownPage(r *http.Request) (*url.URL, bool) {
	ref, err := url.Parse(r.Header.Get("Referer"))
	if err != nil || !strings.EqualFold(ref.Host, r.Host) || !isPublicPage(ref.Path) {
		return nil, false
	}
	ref.Path = canonicalPath(ref.Path)
	return ref, true
}

// maxPathLength is the longest path counted: the site's are far shorter,
// and a referrer names whatever its sender likes.
const maxPathLength = 256

// isPublicPage reports whether p may be a page visitors are counted on:
// not the console, and not a file.
func isPublicPage(p string) bool {
	return strings.HasPrefix(p, "/") && len(p) <= maxPathLength && !strings.ContainsFunc(p, unicode.IsControl) && p != "/admin" && !strings.HasPrefix(p, "/admin/") &&
		!strings.Contains(p[strings.LastIndex(p, "/")+1:], ".")
}

// canonicalPath is p without a trailing slash ("/" stays).
func canonicalPath(p string) string {
	if len(p) > 1 {
		p = strings.TrimRight(p, "/")
		if p == "" {
			return "/"
		}
	}
	return p
}

// campaignOf reads a page's utm_ parameters.
func campaignOf(q url.Values) Campaign {
	return Campaign{Source: limit(q.Get("utm_source")), Medium: limit(q.Get("utm_medium")), Name: limit(q.Get("utm_campaign"))}
}

// limit keeps a value from the request to a length a dashboard shows.
func limit(s string) string {
	const most = 100
	if len(s) > most {
		s = s[:most]
	}
	// No control characters: PostgreSQL refuses NUL in text (a batch of
	// views would be refused with it), and rollups join values with tabs.
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, ""))
}
