package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"studio/internal/store"
	"studio/internal/store/storetest"
)

// TestStore is the behaviour suite of the store, run against both engines.
func TestStore(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			t.Run("contact messages round trip", func(t *testing.T) { testContactRoundTrip(t, engine) })
			t.Run("list since", func(t *testing.T) { testListSince(t, engine) })
			t.Run("outbox e-mail is queued with its message", func(t *testing.T) { testOutboxQueued(t, engine) })
			t.Run("message and e-mail commit together or not at all", func(t *testing.T) { testAtomic(t, engine) })
			t.Run("a repeated idempotency key stores and queues nothing", func(t *testing.T) { testIdempotencyKey(t, engine) })
			t.Run("claiming e-mails: lease, retry, sent", func(t *testing.T) { testClaim(t, engine) })
			t.Run("a sealed mail: never in clear, never due to the previous release", func(t *testing.T) { testSealedMail(t, engine) })
			t.Run("waitlist is idempotent", func(t *testing.T) { testWaitlist(t, engine) })
			t.Run("newsletter is idempotent", func(t *testing.T) { testNewsletter(t, engine) })
			t.Run("concurrent submissions are all kept", func(t *testing.T) { testConcurrent(t, engine) })
			t.Run("reopening keeps data and applies no migration twice", func(t *testing.T) { testReopen(t, engine) })
			t.Run("committed inserts are published as changes", func(t *testing.T) { testChanges(t, engine) })
			t.Run("acme cache: get, put, replace, delete", func(t *testing.T) { testACMECache(t, engine) })
			t.Run("rate buckets are shared by the servers of one store", func(t *testing.T) { testRateBuckets(t, engine) })
			t.Run("analytics: salts, visits, summary, pruning", func(t *testing.T) { testAnalytics(t, engine) })
		})
	}
}

var t0 = time.Date(2025, 5, 16, 9, 30, 0, 123456000, time.UTC)

func ptr(s string) *string { return &s }

func testConcurrent(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	const n = 40
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			_, err := db.CreateContactMessage(ctx, message(fmt.Sprintf("m%02d", i), t0.Add(time.Duration(i)*time.Millisecond)), &email)
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	msgs, err := db.ListContactMessages(ctx, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	outbox, err := db.ListOutbox(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != n || len(outbox) != n {
		t.Errorf("%d messages and %d e-mails, want %d of each", len(msgs), len(outbox), n)
	}
}

func testReopen(t *testing.T, engine storetest.Engine) {
	cfg := engine.NewConfig(t)
	ctx := context.Background()
	db, err := store.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateContactMessage(ctx, message("kept", t0), nil); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db = storetest.MustOpen(t, cfg)
	msgs, err := db.ListContactMessages(ctx, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 1 || msgs[0].ID != "kept" {
		t.Errorf("after reopening: %+v", msgs)
	}
}

func TestOpenRejectsOtherURLs(t *testing.T) {
	if _, err := store.Open(context.Background(), store.Config{DatabaseURL: "mysql://localhost/x"}); err == nil {
		t.Error("Open accepted a mysql:// URL")
	}
}

// TestUnreachablePostgres: the store opens, and each use reports
// ErrUnavailable, while the server cannot be reached.
func TestUnreachablePostgres(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	db, err := store.Open(ctx, store.Config{DatabaseURL: "postgres://studio@127.0.0.1:1/none?connect_timeout=2"})
	if err != nil {
		t.Fatalf("Open = %v, want a store that reports unavailability on use", err)
	}
	defer db.Close()
	_, err = db.CreateContactMessage(ctx, message("x", t0), nil)
	if !errors.Is(err, store.ErrUnavailable) {
		t.Errorf("CreateContactMessage = %v, want ErrUnavailable", err)
	}
}

// TestAuthStore is the behaviour suite of the staff sign-in state, run
// against both engines.
func TestAuthStore(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			t.Run("staff users", func(t *testing.T) { testUsers(t, engine) })
			t.Run("codes: single use, expiry, tries, replacement", func(t *testing.T) { testCodes(t, engine) })
			t.Run("a code used starts its session in its transaction", func(t *testing.T) { testCodeSignIn(t, engine) })
			t.Run("e-mail sends are limited per address", func(t *testing.T) { testEmailSends(t, engine) })
			t.Run("refresh token rotation and reuse", func(t *testing.T) { testRefresh(t, engine) })
			t.Run("sign-out scopes", func(t *testing.T) { testEndSessions(t, engine) })
			t.Run("removing a user ends their sessions", func(t *testing.T) { testRemoveUser(t, engine) })
			t.Run("the first signing key is kept", func(t *testing.T) { testSigningKey(t, engine) })
			t.Run("PKCE codes", func(t *testing.T) { testPKCE(t, engine) })
			t.Run("e-mail change codes", func(t *testing.T) { testEmailChange(t, engine) })
			t.Run("federated sign-in", func(t *testing.T) { testFederated(t, engine) })
			t.Run("a session read with its user whole", func(t *testing.T) { testSessionUser(t, engine) })
		})
	}
}

const adaID = "00000000-0000-4000-8000-000000000001"

// inFlight is how many requests the race tests have in flight at once.
const inFlight = 32

// together runs do in n goroutines released at the same moment, and waits
// for them.
func together(n int, do func()) {
	start := make(chan struct{})
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			do()
		}()
	}
	close(start)
	wg.Wait()
}
