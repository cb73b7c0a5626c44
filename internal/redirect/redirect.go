// Package redirect builds the Location of every redirect the studio makes,
// so that no request can turn one into a link to another host (an open
// redirect).
package redirect

import (
	"net/url"
	"strings"
)

// Location is the value of a Location header that sends a browser to path
// with rawQuery on this same site. path is decoded, as url.URL.Path holds it;
// rawQuery is percent-encoded, as url.URL.RawQuery holds it, and may be "".
//
// ok is false, and the caller must not redirect, when path is not a path of
// this site a browser would stay on: it does not begin with "/"; its second
// character is "/" or "\" (a browser reads "//host" and "/\host" as another
// host); its first segment holds "\"; or it holds a control character (a
// browser drops tabs and line breaks, so "/\t/host" is "//host").
//
// The result begins with "/" followed by neither "/" nor "\", also once
// percent-decoded; path and query are percent-encoded where a URL needs it,
// so the header holds no backslash, space or control character.
func Location(path, rawQuery string) (location string, ok bool) {
	if !staysOnSite(path) {
		return "", false
	}
	location = (&url.URL{Path: path}).EscapedPath()
	if rawQuery != "" {
		location += "?" + escapeQuery(rawQuery)
	}
	return location, true
}

// staysOnSite reports whether a decoded path is one Location may send a
// browser to (see Location).
func staysOnSite(path string) bool {
	if !strings.HasPrefix(path, "/") || strings.ContainsFunc(path, isControl) {
		return false
	}
	first, _, _ := strings.Cut(path[1:], "/")
	return !strings.HasPrefix(path, "//") && !strings.Contains(first, `\`)
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// escapeQuery percent-encodes the bytes of a raw query that a URI's query may
// not hold as they are (RFC 3986 §3.4), and a "%" that begins no escape; the
// escapes already in it are kept.
func escapeQuery(q string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(q); i++ {
		c := q[i]
		if c == '%' && i+2 < len(q) && isHex(q[i+1]) && isHex(q[i+2]) || c != '%' && allowedInQuery(c) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// allowedInQuery reports whether c may stand as it is in a URI's query:
// unreserved, sub-delims, ":", "@", "/" and "?".
func allowedInQuery(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-._~!$&'()*+,;=:@/?", c) >= 0
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
