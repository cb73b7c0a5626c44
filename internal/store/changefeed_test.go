package store_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"studio/internal/changes"
	"studio/internal/signup"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

// follow runs db.FollowChanges until the test ends and waits until it
// listens.
func follow(t *testing.T, db *store.DB) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); db.FollowChanges(ctx, slog.New(slog.DiscardHandler)) }()
	t.Cleanup(func() { cancel(); <-done })
	for deadline := time.Now().Add(5 * time.Second); !db.Following(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("FollowChanges did not start listening")
		}
	}
}

// received reads n changes from sub (waiting up to 2 s for each), then
// makes sure no more come.
func received(t *testing.T, sub *changes.Subscription, n int) []string {
	t.Helper()
	var got []string
	for range n {
		select {
		case c := <-sub.C:
			got = append(got, c.Type+" "+c.Table+" "+strings.Join(c.Key, "|"))
		case <-time.After(2 * time.Second):
			t.Fatalf("received %v, then nothing", got)
		}
	}
	select {
	case c := <-sub.C:
		t.Errorf("an extra change: %+v", c)
	case <-time.After(100 * time.Millisecond):
	}
	return got
}

func testChanges(t *testing.T, engine storetest.Engine) {
	cfg := engine.NewConfig(t)
	db, other := storetest.MustOpen(t, cfg), storetest.MustOpen(t, cfg) // two servers on one store
	follow(t, db)
	if engine.Name != "sqlite" {
		follow(t, other) // on SQLite there is one server: another process's changes are not followed
	}
	ctx := context.Background()
	sub, otherSub := db.Changes().Subscribe(10), other.Changes().Subscribe(10)
	defer sub.Close()
	defer otherSub.Close()
	if _, err := db.CreateContactMessage(ctx, message("m1", t0), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateContactMessage(ctx, message("m1", t0), nil); err == nil {
		t.Fatal("a second message with the same id was stored")
	}
	keyed := message("m2", t0)
	keyed.IdempotencyKey = "k"
	for range 2 { // the repeat stores nothing, so announces nothing
		if _, err := db.CreateContactMessage(ctx, keyed, nil); err != nil {
			t.Fatal(err)
		}
		keyed.ID = "m3"
	}
	for range 2 { // the second join and subscription change nothing
		if _, err := db.JoinWaitlist(ctx, signup.WaitlistEntry{ProductID: "nova", Email: "a@example.com", JoinedAt: t0}); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Subscribe(ctx, signup.Subscriber{Email: "b@example.com", SubscribedAt: t0}); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"INSERT contact_messages m1", "INSERT contact_messages m2", "INSERT waitlist_entries nova|a@example.com", "INSERT newsletter_subscribers b@example.com"}
	if diff := cmp.Diff(want, received(t, sub, len(want))); diff != "" {
		t.Errorf("changes on the server that made them (-want +got):\n%s", diff)
	}
	if engine.Name != "sqlite" {
		if diff := cmp.Diff(want, received(t, otherSub, len(want))); diff != "" {
			t.Errorf("changes on the other server (-want +got):\n%s", diff)
		}
	}
}
