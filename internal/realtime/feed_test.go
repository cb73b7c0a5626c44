package realtime_test

import (
	"strings"
	"sync"
	"testing"

	"studio/internal/realtime"
)

// fakeFeed is a realtime.Feed whose state the test sets.
type fakeFeed struct {
	mu        sync.Mutex
	following bool
	changed   chan struct{}
}

func newFakeFeed(following bool) *fakeFeed {
	return &fakeFeed{following: following, changed: make(chan struct{})}
}

func (f *fakeFeed) Following() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.following
}

func (f *fakeFeed) FollowingChanged() <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.changed
}

func (f *fakeFeed) set(following bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.following = following
	close(f.changed)
	f.changed = make(chan struct{})
}

// TestFeedPausedAndResumed: while the feed does not follow, every channel
// with postgres_changes bindings is told so by a system message of
// Supabase Realtime's shape (status "error"), then told when it resumes
// (status "ok"); a channel without bindings is told nothing, and a channel
// joined while paused is told at once.
func TestFeedPausedAndResumed(t *testing.T) {
	feed := newFakeFeed(true)
	f := newFixture(t, realtime.Config{Feed: feed})
	c := f.dial("?vsn=2.0.0")
	c.send(join("realtime:inbox", inbox(f.token)))
	c.next() // the reply
	if _, event, p := c.next(); event != "system" || p["status"] != "ok" {
		t.Fatalf("after the join = %s %v", event, p)
	}
	c.send(join("realtime:plain", `{"config":{},"access_token":"`+f.token+`"}`))
	if _, event, _ := c.next(); event != "phx_reply" {
		t.Fatalf("join of a channel without bindings = %s", event)
	}

	wantStatus := func(what, status, words string) {
		t.Helper()
		topic, event, p := c.next()
		if topic != "realtime:inbox" || event != "system" || p["extension"] != "postgres_changes" || p["channel"] != "inbox" ||
			p["status"] != status || !strings.Contains(p["message"].(string), words) {
			t.Errorf("%s: %s %s %v, want a system message (%s, %q)", what, topic, event, p, status, words)
		}
	}
	feed.set(false)
	wantStatus("paused", "error", "Live changes are paused")
	feed.set(true)
	wantStatus("resumed", "ok", "live changes resumed")

	feed.set(false)
	wantStatus("paused again", "error", "Live changes are paused")
	late := f.dial("?vsn=2.0.0")
	late.send(join("realtime:inbox", inbox(f.token)))
	late.next() // the reply
	if _, event, p := late.next(); event != "system" || p["message"] != "Subscribed to PostgreSQL" {
		t.Errorf("a join while paused, first = %s %v", event, p)
	}
	if _, event, p := late.next(); event != "system" || p["status"] != "error" {
		t.Errorf("a join while paused, then = %s %v, want the pause", event, p)
	}
}
