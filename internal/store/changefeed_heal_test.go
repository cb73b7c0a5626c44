package store_test

import (
	"context"
	"testing"
	"time"

	"studio/internal/store"
	"studio/internal/store/storetest"
)

// TestOwnChangesWithoutListening: a server's own commits reach its own bus
// on PostgreSQL even when it does not listen for NOTIFY.
func TestOwnChangesWithoutListening(t *testing.T) {
	db := storetest.MustOpen(t, store.Config{DatabaseURL: storetest.PostgresURL(t)}) // FollowChanges not running
	sub := db.Changes().Subscribe(10)
	defer sub.Close()
	if _, err := db.CreateContactMessage(context.Background(), message("m1", t0), nil); err != nil {
		t.Fatal(err)
	}
	if got := received(t, sub, 1); got[0] != "INSERT contact_messages m1" {
		t.Errorf("got %v", got)
	}
}

// TestChangeFeedHeals: after PostgreSQL has refused connections for 4 s,
// the feed listens again within 2 s of it answering, says so, and hears
// the other servers' changes again.
func TestChangeFeedHeals(t *testing.T) {
	direct := storetest.PostgresURL(t)
	proxy := storetest.NewCuttableProxy(t, direct)
	db := storetest.MustOpen(t, store.Config{DatabaseURL: proxy.URL})
	other := storetest.MustOpen(t, store.Config{DatabaseURL: direct})
	follow(t, db)

	changed := db.FollowingChanged()
	proxy.Cut()
	waitFor(t, changed, "the feed to say it stopped listening")
	if db.Following() {
		t.Fatal("Following after the connection was cut")
	}
	time.Sleep(4 * time.Second) // several failed attempts: a doubling backoff would now wait 4 s
	changed = db.FollowingChanged()
	proxy.Restore()
	back := time.Now()
	waitFor(t, changed, "the feed to say it listens again")
	if took := time.Since(back); !db.Following() || took > 2*time.Second {
		t.Fatalf("listening again %v after PostgreSQL answered (Following %v), want within 2 s", took, db.Following())
	}

	sub := db.Changes().Subscribe(10)
	defer sub.Close()
	if _, err := other.CreateContactMessage(context.Background(), message("m1", t0), nil); err != nil {
		t.Fatal(err)
	}
	if got := received(t, sub, 1); got[0] != "INSERT contact_messages m1" {
		t.Errorf("got %v", got)
	}
}

// waitFor waits up to 10 s for c to close.
func waitFor(t *testing.T, c <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-c:
	case <-time.After(10 * time.Second):
		t.Fatalf("waited 10 s for %s", what)
	}
}
