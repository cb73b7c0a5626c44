package redirect_test

import (
	"net/url"
	"testing"

	"studio/internal/redirect"
	"studio/internal/redirect/redirecttest"
)

func TestLocation(t *testing.T) {
	for _, tt := range []struct {
		name, path, query string
		want              string // "" when refused
	}{
		{name: "root", path: "/", want: "/"},
		{name: "page", path: "/studio", want: "/studio"},
		{name: "query kept", path: "/admin", query: "token_hash=ab%2Fc&type=magiclink", want: "/admin?token_hash=ab%2Fc&type=magiclink"},
		{name: "trailing slash kept", path: "/a/b/", want: "/a/b/"},
		{name: "backslash later is escaped", path: `/a/\evil.example`, want: "/a/%5Cevil.example"},
		{name: "space and non-ASCII escaped", path: "/a b/é", want: "/a%20b/%C3%A9"},
		{name: "question mark and hash in the path escaped", path: "/a?b#c", want: "/a%3Fb%23c"},
		{name: "double slash later is a path", path: "/a//evil.example", want: "/a//evil.example"},
		{name: "query bytes escaped", path: "/a", query: `x=\"<>#` + "\x80", want: "/a?x=%5C%22%3C%3E%23%80"},
		{name: "lone percent in the query escaped", path: "/a", query: "x=%zz&y=%4", want: "/a?x=%25zz&y=%254"},

		{name: "empty", path: ""},
		{name: "relative", path: "evil.example"},
		{name: "scheme", path: "https://evil.example/"},
		{name: "two slashes", path: "//evil.example/"},
		{name: "three slashes", path: "///evil.example"},
		{name: "slash backslash", path: `/\evil.example`},
		{name: "backslash twice", path: `/\\evil.example`},
		{name: "backslash in the first segment", path: `/.\evil.example`},
		{name: "backslash ends the first segment", path: `/evil.example\/x`},
		{name: "tab between slashes", path: "/\t/evil.example"},
		{name: "tab before a backslash", path: "/\t\\evil.example"},
		{name: "newline between slashes", path: "/\n/evil.example"},
		{name: "carriage return between slashes", path: "/\r/evil.example"},
		{name: "control character later", path: "/a/\x00b"},
		{name: "delete", path: "/\x7f/evil.example"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := redirect.Location(tt.path, tt.query)
			if ok != (tt.want != "") || got != tt.want {
				t.Errorf("Location(%q, %q) = %q, %v; want %q", tt.path, tt.query, got, ok, tt.want)
			}
		})
	}
}

// FuzzLocation: whatever the path and query, a Location given stays on the
// site, once resolved as a browser would.
func FuzzLocation(f *testing.F) {
	for _, seed := range [][2]string{
		{"/", ""}, {"/studio/", "a=1"}, {`/\evil.example`, "token_hash=x"}, {"//evil.example", ""},
		{"/\t/evil.example", ""}, {"/%2F%2Fevil.example", ""}, {`/%5Cevil.example`, ""}, {"/a/../../evil.example", ""},
		{"/.\\evil.example", ""}, {"/a", "#//evil.example"}, {"/\u3002evil", ""}, {"/ //evil.example", ""},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, path, query string) {
		loc, ok := redirect.Location(path, query)
		if !ok {
			return
		}
		redirecttest.CheckSameSite(t, loc)
		if u, err := url.Parse(loc); err != nil || u.Path != path {
			t.Errorf("Location(%q, %q) = %q: its path is %q (%v), want the path asked for", path, query, loc, u.Path, err)
		}
	})
}
