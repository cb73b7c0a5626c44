package auth_test

import (
	"net/url"
	"strings"
	"testing"

	"studio/internal/auth"
)

// redirectPatterns are the --redirect-urls of the redirect tests, on top of
// the site's /admin and everything under it.
var redirectPatterns = []string{
	"https://preview.studio.test/app/*",
	"https://preview.studio.test/docs/**",
	"http://localhost:3000/callback",
}

func newRedirects(t testing.TB) *auth.RedirectAllowList {
	t.Helper()
	l, err := auth.NewRedirectAllowList(origin, redirectPatterns)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestRedirectAllowList: a redirect_to is kept, normalised, when it matches
// the list, and replaced by the site's /admin otherwise, whatever it
// smuggles; the link's own parameters always come last and once.
func TestRedirectAllowList(t *testing.T) {
	l := newRedirects(t)
	const def = "https://studio.test/admin?token_hash=T&type=magiclink"
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", def},
		{"the console", "https://studio.test/admin", def},
		{"a console page", "https://studio.test/admin/inbox", "https://studio.test/admin/inbox?token_hash=T&type=magiclink"},
		{"deep console page with a query", "https://studio.test/admin/a/b?filter=spam",
			"https://studio.test/admin/a/b?filter=spam&token_hash=T&type=magiclink"},
		{"upper case scheme and host, default port", "HTTPS://Studio.TEST:443/admin/inbox",
			"https://studio.test/admin/inbox?token_hash=T&type=magiclink"},
		{"trailing slash cleaned", "https://studio.test/admin/inbox/", "https://studio.test/admin/inbox?token_hash=T&type=magiclink"},
		{"dot segments cleaned inside", "https://studio.test/admin/x/../inbox", "https://studio.test/admin/inbox?token_hash=T&type=magiclink"},
		{"fragment dropped", "https://studio.test/admin/inbox#x", "https://studio.test/admin/inbox?token_hash=T&type=magiclink"},
		{"its own token_hash, type and code dropped", "https://studio.test/admin/inbox?token_hash=evil&type=recovery&code=evil&x=1",
			"https://studio.test/admin/inbox?token_hash=T&type=magiclink&x=1"},
		{"single star: one segment", "https://preview.studio.test/app/home", "https://preview.studio.test/app/home?token_hash=T&type=magiclink"},
		{"single star does not cross /", "https://preview.studio.test/app/a/b", def},
		{"double star crosses /", "https://preview.studio.test/docs/a/b/c", "https://preview.studio.test/docs/a/b/c?token_hash=T&type=magiclink"},
		{"exact URL with a port", "http://localhost:3000/callback", "http://localhost:3000/callback?token_hash=T&type=magiclink"},
		{"exact URL, another port", "http://localhost:3001/callback", def},
		{"exact URL, https", "https://localhost:3000/callback", def},

		{"the site's root", "https://studio.test/", def},
		{"another page of the site", "https://studio.test/contact", def},
		{"prefix is not a segment", "https://studio.test/administrator", def},
		{"another host", "https://evil.test/admin", def},
		{"a host that ends like it", "https://evilstudio.test/admin", def},
		{"a host that starts like it", "https://studio.test.evil.test/admin", def},
		{"trailing dot host", "https://studio.test./admin", def},
		{"http instead of https", "http://studio.test/admin/inbox", def},
		{"another port", "https://studio.test:8443/admin/inbox", def},
		{"user info", "https://studio.test@evil.test/admin", def},
		{"user info that names the site", "https://studio.test:443@evil.test/admin/x", def},
		{"user info on the site", "https://x@studio.test/admin/x", def},
		{"backslash path (the issue)", `https://studio.test/\evil.test/`, def},
		{"percent 5C path (the issue)", "https://studio.test/%5Cevil.test/", def},
		{"percent 5C under admin", "https://studio.test/admin/%5Cevil.test", def},
		{"backslash for slashes", `https:\\evil.test/admin`, def},
		{"scheme-relative", "//evil.test/admin", def},
		{"relative path", "/admin/inbox", def},
		{"one slash after scheme", "https:/evil.test/admin", def},
		{"three slashes", "https:///evil.test/admin", def},
		{"double slash path", "https://studio.test//evil.test/admin", def},
		{"escaped dot segments out of admin", "https://studio.test/admin/%2e%2e/%2e%2e/evil", def},
		{"dot segments out of admin", "https://studio.test/admin/../contact", def},
		{"escaped slashes", "https://studio.test/admin%2F..%2F..%2Fevil", def},
		{"double escape", "https://studio.test/admin/%252e%252e/x", def},
		{"control character", "https://studio.test/admin/\x00x", def},
		{"escaped control character", "https://studio.test/admin/%0d%0aLocation:%20x", def},
		{"tab in host", "https://stu\tdio.test/admin", def},
		{"newline", "https://studio.test/admin\n.evil.test", def},
		{"space", "https://studio.test /admin", def},
		{"escaped host", "https://studio%2Etest/admin/inbox", def},
		{"escaped at in host", "https://studio.test%40evil.test/admin", def},
		{"fragment hides host", "https://evil.test#@studio.test/admin", def},
		{"javascript", "javascript://studio.test/admin/%0aalert(1)", def},
		{"data", "data:text/html,<script>", def},
		{"decimal IP", "https://2130706433/admin", def},
		{"bad query", "https://studio.test/admin/inbox?x=%zz", def},
		{"too long", "https://studio.test/admin/" + strings.Repeat("a", 2100), def},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := l.Link(tt.in, url.Values{"token_hash": {"T"}, "type": {"magiclink"}})
			if got != tt.want {
				t.Errorf("Link(%q)\n got %s\nwant %s", tt.in, got, tt.want)
			}
		})
	}
}

// TestRedirectPatterns: a pattern names an exact scheme and host, with a
// glob in its path only.
func TestRedirectPatterns(t *testing.T) {
	tests := []struct {
		name, pattern string
		ok            bool
	}{
		{"exact", "https://studio.example/welcome", true},
		{"glob", "https://studio.example/admin/**", true},
		{"root", "https://studio.example", true},
		{"port", "http://localhost:3000/cb", true},
		{"IPv6", "http://[::1]:3000/cb", true},
		{"wildcard host", "https://*.studio.example/**", false},
		{"glob in host", "https://studio.example**", false},
		{"no scheme", "studio.example/admin", false},
		{"other scheme", "myapp://callback", false},
		{"query", "https://studio.example/admin?x=1", false},
		{"fragment", "https://studio.example/admin#x", false},
		{"user", "https://u@studio.example/admin", false},
		{"backslash", `https://studio.example/admin\x`, false},
		{"escape", "https://studio.example/admin%2F", false},
		{"trailing slash", "https://studio.example/admin/", false},
		{"dot dot", "https://studio.example/admin/../x", false},
		{"empty segment", "https://studio.example//x", false},
		{"space", "https://studio.example/a b", false},
		{"bad glob", "https://studio.example/[", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := auth.NewRedirectAllowList(origin, []string{tt.pattern})
			if (err == nil) != tt.ok {
				t.Errorf("NewRedirectAllowList(%q) = %v, want ok %v", tt.pattern, err, tt.ok)
			}
		})
	}
}

// FuzzRedirectAllowList: whatever redirect_to says, the link leads to the
// host of a pattern, by a path that begins with one slash, and carries the
// token once; and a redirect_to that is kept was on that host itself.
func FuzzRedirectAllowList(f *testing.F) {
	for _, seed := range []string{"https://studio.test/admin/inbox", `https://studio.test/\evil.test/`,
		"https://studio.test/%5Cevil.test/", "https://studio.test@evil.test/admin", "https://preview.studio.test/docs/%2e%2e/x",
		"HTTP://LOCALHOST:3000/callback?x=1#y", "https://studio.test/admin/%2F%2Fevil.test", "https://studio.test/admin?token_hash=x"} {
		f.Add(seed)
	}
	l := newRedirects(f)
	hosts := map[string]bool{"studio.test": true, "preview.studio.test": true, "localhost:3000": true}
	f.Fuzz(func(t *testing.T, in string) {
		link := l.Link(in, url.Values{"token_hash": {"T"}, "type": {"magiclink"}})
		u, err := url.Parse(link)
		if err != nil {
			t.Fatalf("Link(%q) = %q: %v", in, link, err)
		}
		if !hosts[u.Host] || u.User != nil || strings.ContainsAny(link, `\#`) || hasControl(link) {
			t.Fatalf("Link(%q) = %q: leaves the allowed hosts", in, link)
		}
		if !strings.HasPrefix(u.Path, "/") || strings.HasPrefix(u.Path, "//") || strings.Contains(u.Path, "/..") || strings.ContainsAny(u.Path, `\%`) {
			t.Fatalf("Link(%q) = %q: path %q", in, link, u.Path)
		}
		if q := u.Query(); len(q["token_hash"]) != 1 || q.Get("token_hash") != "T" || len(q["type"]) != 1 || q.Has("code") {
			t.Fatalf("Link(%q) = %q: query %v", in, link, q)
		}
		if u.Path == "/admin" && u.Host == "studio.test" {
			return // the fallback, or the console itself
		}
		// Kept: the input itself named this host.
		in2, err := url.Parse(in)
		if err != nil || !strings.EqualFold(strings.TrimSuffix(strings.TrimSuffix(in2.Host, ":443"), ":80"), u.Host) {
			t.Fatalf("Link(%q) = %q, but the input's host is not %s", in, link, u.Host)
		}
	})
}

func hasControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r < ' ' || r == 0x7f })
}

// TestMailedLinkRedirect: the link mailed by /otp, /recover and PUT /user
// opens the redirect_to asked for only when the allow-list has it; a
// hostile one on the site's own origin (the issue's /%5Cevil.example/)
// or a CORS-allowed origin gives the console instead.
func TestMailedLinkRedirect(t *testing.T) {
	f := newFixture(t, sqlite(), func(c *auth.Config) { c.Redirects = newRedirects(t) })
	linkIn := func(mail string) string {
		for _, line := range strings.Split(mail, "\n") {
			if strings.HasPrefix(line, "http") {
				return line
			}
		}
		t.Fatalf("no link in the mail:\n%s", mail)
		return ""
	}
	tests := []struct {
		name, redirectTo, wantPrefix string
	}{
		{"none", "", "https://studio.test/admin?token_hash="},
		{"the issue's backslash", "https://studio.test/%5Cevil.example/", "https://studio.test/admin?token_hash="},
		{"a page of the site outside the console", "https://studio.test/contact", "https://studio.test/admin?token_hash="},
		{"a CORS-allowed origin", "https://console.test/admin", "https://studio.test/admin?token_hash="},
		{"a console page", "https://studio.test/admin/inbox?filter=spam", "https://studio.test/admin/inbox?filter=spam&token_hash="},
		{"an allowed glob", "https://preview.studio.test/docs/a/b", "https://preview.studio.test/docs/a/b?token_hash="},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, path := range []string{"/auth/v1/otp", "/auth/v1/recover"} {
				r := f.do("POST", path+"?redirect_to="+url.QueryEscape(tt.redirectTo), `{"email":"ada@studio.test"}`)
				if r.status != 200 {
					t.Fatalf("%s = %d %s", path, r.status, r.raw)
				}
				if link := linkIn(f.mail()); !strings.HasPrefix(link, tt.wantPrefix) {
					t.Errorf("%s: link %s, want %s…", path, link, tt.wantPrefix)
				}
				f.clock.Advance(auth.EmailInterval)
			}
		})
	}
}
