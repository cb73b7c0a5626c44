package auth

import (
	"fmt"
	"net/url"
	"path"
	"strings"
	"studio/internal/auth/federated"

	"github.com/gobwas/glob"
)

// RedirectAllowList decides where a mailed link may lead, as GoTrue's
// URI_ALLOW_LIST does: a redirect_to (the client's emailRedirectTo) that
// matches none of its patterns is replaced by the site's /admin, without an
// error. The decision is made on the parsed, normalised URL (scheme and
// host in lower case, no default port, the path percent-decoded and
// cleaned), and the link is built from that same URL, so what was checked
// is what is sent.
type RedirectAllowList struct {
	fallback url.URL
	patterns []redirectPattern
}

// redirectPattern is one entry of the list: an exact scheme and host, and a
// glob over the cleaned path in which `*` and `?` stop at `/` and `**`
// does not.
type redirectPattern struct {
	scheme, host string
	path         *glob.Pattern
}

// ConsolePath is where mailed links lead unless redirect_to names another
// allowed page.
const ConsolePath = "/admin"

// maxRedirectLength bounds a redirect_to; a longer one is replaced.
const maxRedirectLength = 2048

// reservedLinkParams are the query parameters a link's page reads to sign
// in; a redirect_to's own values of them are dropped.
var reservedLinkParams = []string{"token_hash", "type", "code"}

// NewRedirectAllowList is the allow-list of a site: its ConsolePath and
// everything under it, and patterns, each an absolute http(s) URL with a
// glob in its path only (`https://studio.example/admin/**`; `*` does not
// cross `/`, `**` does; no query, fragment, user or backslash).
func NewRedirectAllowList(siteOrigin string, patterns []string) (*RedirectAllowList, error) {
	o, err := url.Parse(siteOrigin)
	if err != nil || o.Host == "" {
		return nil, fmt.Errorf("site origin %q: not an absolute URL", siteOrigin)
	}
	scheme, host, ok := normalHost(o)
	if !ok {
		return nil, fmt.Errorf("site origin %q: not an http(s) origin", siteOrigin)
	}
	l := &RedirectAllowList{fallback: url.URL{Scheme: scheme, Host: host, Path: ConsolePath}}
	for _, p := range append([]string{siteOrigin + ConsolePath, siteOrigin + ConsolePath + "/**"}, patterns...) {
		rp, err := parseRedirectPattern(p)
		if err != nil {
			return nil, err
		}
		l.patterns = append(l.patterns, rp)
	}
	return l, nil
}

// parseRedirectPattern reads scheme://host[:port]/path-glob.
func parseRedirectPattern(p string) (redirectPattern, error) {
	bad := func(why string) (redirectPattern, error) {
		return redirectPattern{}, fmt.Errorf("redirect URL pattern %q: %s", p, why)
	}
	if strings.ContainsAny(p, "?#\\@%") || hasControlOrSpace(p) {
		return bad("a pattern has no query, fragment, user, percent-escape, backslash or space")
	}
	scheme, rest, ok := strings.Cut(p, "://")
	if !ok {
		return bad("want an absolute URL such as https://studio.example/admin/**")
	}
	authority, pathGlob := rest, "/"
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		authority, pathGlob = rest[:i], rest[i:]
	}
	if strings.ContainsAny(authority, "*{}") {
		return bad("a glob may only be in the path; the host must be exact")
	}
	u, err := url.Parse(scheme + "://" + authority + "/")
	if err != nil || u.Host == "" {
		return bad("not an absolute URL")
	}
	scheme, host, ok := normalHost(u)
	if !ok {
		return bad("want an http or https URL with a host")
	}
	for _, seg := range strings.Split(pathGlob, "/")[1:] {
		if seg == "." || seg == ".." || (seg == "" && pathGlob != "/") {
			return bad("the path must have no empty, . or .. segment (a trailing / included)")
		}
	}
	g, err := glob.Compile(pathGlob, '/')
	if err != nil {
		return bad(err.Error())
	}
	return redirectPattern{scheme: scheme, host: host, path: g}, nil
}

// normalHost is u's scheme and host as compared: lower case, the default
// port dropped; false when u is not an http(s) URL with a plain host.
func normalHost(u *url.URL) (scheme, host string, ok bool) {
	scheme = strings.ToLower(u.Scheme)
	if (scheme != "http" && scheme != "https") || u.User != nil || u.Opaque != "" {
		return "", "", false
	}
	name, port := strings.ToLower(u.Hostname()), u.Port()
	if !federated.ValidHostname(name) {
		return "", "", false
	}
	if (scheme == "https" && port == "443") || (scheme == "http" && port == "80") {
		port = ""
	}
	if strings.Contains(name, ":") {
		name = "[" + name + "]"
	}
	if port != "" {
		return scheme, name + ":" + port, true
	}
	return scheme, name, true
}

// resolve is the page a link asked to open redirectTo leads to: its
// normalised form when it matches a pattern, else the site's ConsolePath.
func (l *RedirectAllowList) resolve(redirectTo string) url.URL {
	if u, ok := l.normalise(redirectTo); ok {
		for _, p := range l.patterns {
			if p.scheme == u.Scheme && p.host == u.Host && p.path.Match(u.Path) {
				return u
			}
		}
	}
	return l.fallback
}

// Link is the URL of a mail's link: redirectTo normalised when it matches a
// pattern (its query kept less the link's own parameters, its fragment
// dropped), else the site's ConsolePath; with params set in its query.
func (l *RedirectAllowList) Link(redirectTo string, params url.Values) string {
	u := l.resolve(redirectTo)
	q, _ := url.ParseQuery(u.RawQuery) // normalise checked that it parses
	for _, k := range reservedLinkParams {
		q.Del(k)
	}
	for k, vs := range params {
		q[k] = vs
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// normalise parses s into the URL a link would be built from: false when s
// is not an absolute http(s) URL, or holds anything that a browser could
// read differently from Go (a backslash, a control character, a user, a
// percent-escape that decodes to one of them or to another escape, a
// query that does not parse).
func (l *RedirectAllowList) normalise(s string) (url.URL, bool) {
	if s == "" || len(s) > maxRedirectLength || strings.ContainsRune(s, '\\') || hasControlOrSpace(s) {
		return url.URL{}, false
	}
	u, err := url.Parse(s)
	if err != nil {
		return url.URL{}, false
	}
	scheme, host, ok := normalHost(u)
	if !ok {
		return url.URL{}, false
	}
	p := u.Path // percent-decoded
	if p == "" {
		p = "/"
	}
	if p[0] != '/' || strings.ContainsAny(p, "\\%") || hasControlOrSpace(p) {
		return url.URL{}, false
	}
	if _, err := url.ParseQuery(u.RawQuery); err != nil {
		return url.URL{}, false
	}
	return url.URL{Scheme: scheme, Host: host, Path: path.Clean(p), RawQuery: u.RawQuery}, true
}

// hasControlOrSpace reports whether s holds an ASCII control character or
// white space (which browsers strip or read their own way).
func hasControlOrSpace(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f })
}
