package analytics

import (
	"maps"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"slices"
	"testing"
)

func TestOutboundTargetsAreTheGoals(t *testing.T) {
	if got, want := slices.Sorted(maps.Keys(Outbound)), slices.Sorted(maps.Keys(outboundGoals)); !slices.Equal(got, want) {
		t.Fatalf("outbound.json names %v; the goals are %v", got, want)
	}
	for name, target := range Outbound {
		u, err := url.Parse(target)
		if err != nil || u.Scheme != "https" || u.Host == "" {
			t.Errorf("%s: %q is not an https address", name, target)
		}
	}
}

// TestFollowOutbound: a known name redirects to its fixed target and
// counts; anything else (an address in the path, another name) is 404, and a
// prefetch is not counted.
func TestFollowOutbound(t *testing.T) {
	c := New(nil, Config{Buffer: 8})
	addr := netip.MustParseAddr("192.0.2.1")
	follow := func(name string, header ...string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, OutboundPath+url.PathEscape(name), nil)
		for i := 0; i+1 < len(header); i += 2 {
			r.Header.Set(header[i], header[i+1])
		}
		w := httptest.NewRecorder()
		FollowOutbound(c, w, r, name, addr)
		return w
	}
	w := follow("demo")
	if w.Code != http.StatusFound || w.Header().Get("Location") != Outbound["demo"] || w.Header().Get("Cache-Control") != "no-store" {
		t.Errorf("demo: %d to %q (%q)", w.Code, w.Header().Get("Location"), w.Header().Get("Cache-Control"))
	}
	follow("schedule", "Sec-Purpose", "prefetch")
	for _, bad := range []string{"https://evil.example", "//evil.example", "Demo", "", "demo/"} {
		if w := follow(bad); w.Code != http.StatusNotFound || w.Header().Get("Location") != "" {
			t.Errorf("%q: %d to %q, want 404", bad, w.Code, w.Header().Get("Location"))
		}
	}
	if n := len(c.events); n != 1 {
		t.Fatalf("%d events buffered, want the demo's only", n)
	}
	if e := <-c.events; e.goal != GoalDemo {
		t.Errorf("counted %q, want %q", e.goal, GoalDemo)
	}
}
