package store_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"studio/internal/changes"
	"studio/internal/contact"
	"studio/internal/notify"
	"studio/internal/ratelimit"
	"studio/internal/signup"
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
			t.Run("waitlist is idempotent", func(t *testing.T) { testWaitlist(t, engine) })
			t.Run("newsletter is idempotent", func(t *testing.T) { testNewsletter(t, engine) })
			t.Run("concurrent submissions are all kept", func(t *testing.T) { testConcurrent(t, engine) })
			t.Run("reopening keeps data and applies no migration twice", func(t *testing.T) { testReopen(t, engine) })
			t.Run("committed inserts are published as changes", func(t *testing.T) { testChanges(t, engine) })
			t.Run("acme cache: get, put, replace, delete", func(t *testing.T) { testACMECache(t, engine) })
			t.Run("rate buckets are shared by the servers of one store", func(t *testing.T) { testRateBuckets(t, engine) })
		})
	}
}

var t0 = time.Date(2025, 5, 16, 9, 30, 0, 123456000, time.UTC)

func ptr(s string) *string { return &s }

func message(id string, at time.Time) contact.Message {
	return contact.Message{ID: id, ReceivedAt: at, Name: "Ada Lovelace", Email: "ada@example.com", Message: "Hello"}
}

func testContactRoundTrip(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	want := []contact.Message{
		{ID: "01", ReceivedAt: t0, Name: "Ada", Email: "ada@example.com", Company: nil, Phone: nil, Message: "Hi"},
		{ID: "02", ReceivedAt: t0.Add(time.Second), Name: "Zoë 😀 Ñ", Email: "z@example.com", Company: ptr("Acme, Inc."), Phone: ptr("+1 (415) 555-0142"),
			Message: strings.Repeat("line with 'quotes' and \"double\" and ; --\n", 100), Spam: false},
		{ID: "03", ReceivedAt: t0.Add(2 * time.Second), Name: "Bot", Email: "bot@example.com", Message: "buy", Spam: true},
	}
	for _, m := range want {
		if _, err := db.CreateContactMessage(ctx, m, nil); err != nil {
			t.Fatal(err)
		}
	}
	got, err := db.ListContactMessages(ctx, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ListContactMessages (-want +got):\n%s", diff)
	}
}

func testListSince(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	for i := range 5 {
		if _, err := db.CreateContactMessage(ctx, message(fmt.Sprint(i), t0.Add(time.Duration(i)*time.Hour)), nil); err != nil {
			t.Fatal(err)
		}
	}
	got, err := db.ListContactMessages(ctx, t0.Add(3*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range got {
		ids = append(ids, m.ID)
	}
	if diff := cmp.Diff([]string{"3", "4"}, ids); diff != "" {
		t.Errorf("since t0+3h (-want +got):\n%s", diff)
	}
}

var email = notify.Email{From: "site@studio.test", To: []string{"a@studio.test", "b@studio.test"}, ReplyTo: "ada@example.com", Subject: "New", Body: "Hello\n"}

func testOutboxQueued(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	if _, err := db.CreateContactMessage(ctx, message("with", t0), &email); err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateContactMessage(ctx, message("without", t0), nil); err != nil {
		t.Fatal(err)
	}
	got, err := db.ListOutbox(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].ContactMessageID != "with" || got[0].Sent || got[0].Attempts != 0 {
		t.Fatalf("outbox = %+v, want one unsent e-mail for message with", got)
	}
	claimed, err := db.ClaimEmails(ctx, t0, time.Minute, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(claimed) != 1 {
		t.Fatalf("claimed %d, want 1", len(claimed))
	}
	if diff := cmp.Diff(email, claimed[0].Email); diff != "" {
		t.Errorf("claimed e-mail (-want +got):\n%s", diff)
	}
}

func testIdempotencyKey(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	first := message("first", t0)
	first.IdempotencyKey = "key-1"
	// Repeats of one request, some at once (a balancer's retry racing the
	// original), each with a new id as the contact service makes them.
	var wg sync.WaitGroup
	got := make([]contact.Message, 8)
	errs := make([]error, len(got))
	for i := range got {
		wg.Go(func() {
			m := first
			m.ID = fmt.Sprintf("attempt-%d", i)
			got[i], errs[i] = db.CreateContactMessage(ctx, m, &email)
		})
	}
	wg.Wait()
	for i := range got {
		if errs[i] != nil {
			t.Fatalf("attempt %d: %v", i, errs[i])
		}
		if got[i].ID != got[0].ID || !got[i].ReceivedAt.Equal(got[0].ReceivedAt) {
			t.Errorf("attempt %d answered %s, attempt 0 %s: want one message", i, got[i].ID, got[0].ID)
		}
	}
	other := message("other", t0)
	other.IdempotencyKey = "key-2"
	for _, m := range []contact.Message{other, message("no-key-1", t0), message("no-key-2", t0)} {
		if stored, err := db.CreateContactMessage(ctx, m, &email); err != nil || stored.ID != m.ID {
			t.Fatalf("%s: stored %s, %v", m.ID, stored.ID, err)
		}
	}
	msgs, err := db.ListContactMessages(ctx, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 4 {
		t.Errorf("%d messages stored, want 4 (one per key, and both without)", len(msgs))
	}
	outbox, err := db.ListOutbox(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(outbox) != 4 {
		t.Errorf("%d e-mails queued, want 4", len(outbox))
	}
}

func testAtomic(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	if _, err := db.CreateContactMessage(ctx, message("dup", t0), nil); err != nil {
		t.Fatal(err)
	}
	// The second insert fails on the duplicate id: its e-mail must not stay queued.
	if _, err := db.CreateContactMessage(ctx, message("dup", t0), &email); err == nil {
		t.Fatal("duplicate id accepted")
	}
	outbox, err := db.ListOutbox(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(outbox) != 0 {
		t.Errorf("outbox = %+v after a failed insert, want empty", outbox)
	}
	msgs, _ := db.ListContactMessages(ctx, time.Time{})
	if len(msgs) != 1 {
		t.Errorf("%d messages, want 1", len(msgs))
	}
}

func testClaim(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	for i := range 3 {
		if _, err := db.CreateContactMessage(ctx, message(fmt.Sprint(i), t0.Add(time.Duration(i)*time.Second)), &email); err != nil {
			t.Fatal(err)
		}
	}
	ids := func(qs []notify.Queued) []int64 {
		var out []int64
		for _, q := range qs {
			out = append(out, q.ID)
		}
		return out
	}
	if got, _ := db.ClaimEmails(ctx, t0.Add(-time.Second), time.Minute, 10); len(got) != 0 {
		t.Fatalf("claimed %v before they were due", ids(got))
	}
	first, err := db.ClaimEmails(ctx, t0.Add(time.Second), time.Minute, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != 2 || first[0].Attempts != 1 {
		t.Fatalf("claimed %+v, want the two due e-mails on their first attempt", first)
	}
	// Leased: not claimable again until the lease ends.
	if got, _ := db.ClaimEmails(ctx, t0.Add(30*time.Second), time.Minute, 10); cmp.Diff([]int64{3}, ids(got)) != "" {
		t.Fatalf("during the lease claimed %v, want only the third", ids(got))
	}
	if err := db.MarkEmailSent(ctx, first[0].ID, t0.Add(2*time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := db.RetryEmail(ctx, first[1].ID, t0.Add(10*time.Minute), "smtp down"); err != nil {
		t.Fatal(err)
	}
	// After the third's lease: the third (its sender died) is due again, the
	// second waits for its retry time, the first is sent.
	got, err := db.ClaimEmails(ctx, t0.Add(5*time.Minute), time.Minute, 10)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int64{3}, ids(got)); diff != "" {
		t.Fatalf("after the lease (-want +got):\n%s", diff)
	}
	if got[0].Attempts != 2 {
		t.Errorf("attempts = %d, want 2", got[0].Attempts)
	}
	if err := db.MarkEmailSent(ctx, 3, t0.Add(5*time.Minute)); err != nil {
		t.Fatal(err)
	}
	got, _ = db.ClaimEmails(ctx, t0.Add(11*time.Minute), time.Minute, 10)
	if diff := cmp.Diff([]int64{2}, ids(got)); diff != "" {
		t.Fatalf("after the retry time (-want +got):\n%s", diff)
	}
	if n, err := db.OutboxDepth(ctx); err != nil || n != 1 {
		t.Errorf("outbox depth = %d, %v; want 1 (the second, waiting for its retry)", n, err)
	}
	outbox, _ := db.ListOutbox(ctx)
	want := []store.OutboxEntry{
		{ID: 1, ContactMessageID: "0", Subject: "New", Attempts: 1, Sent: true},
		{ID: 2, ContactMessageID: "1", Subject: "New", Attempts: 2, LastError: "smtp down"},
		{ID: 3, ContactMessageID: "2", Subject: "New", Attempts: 2, Sent: true},
	}
	if diff := cmp.Diff(want, outbox); diff != "" {
		t.Errorf("outbox (-want +got):\n%s", diff)
	}
}

func testWaitlist(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	steps := []struct {
		entry       signup.WaitlistEntry
		wantCreated bool
	}{
		{signup.WaitlistEntry{ProductID: "saas-2", Email: "ada@example.com", JoinedAt: t0}, true},
		{signup.WaitlistEntry{ProductID: "saas-2", Email: "ada@example.com", JoinedAt: t0.Add(time.Hour)}, false},
		{signup.WaitlistEntry{ProductID: "saas-3", Email: "ada@example.com", JoinedAt: t0.Add(time.Minute)}, true},
	}
	for _, s := range steps {
		created, err := db.JoinWaitlist(ctx, s.entry)
		if err != nil {
			t.Fatal(err)
		}
		if created != s.wantCreated {
			t.Errorf("JoinWaitlist(%+v) created = %v, want %v", s.entry, created, s.wantCreated)
		}
	}
	got, err := db.ListWaitlist(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []signup.WaitlistEntry{steps[0].entry, steps[2].entry}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ListWaitlist (-want +got):\n%s", diff)
	}
}

func testNewsletter(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	for i, wantCreated := range []bool{true, false} {
		created, err := db.Subscribe(ctx, signup.Subscriber{Email: "reader@example.com", SubscribedAt: t0.Add(time.Duration(i) * time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		if created != wantCreated {
			t.Errorf("Subscribe #%d created = %v, want %v", i+1, created, wantCreated)
		}
	}
	got, err := db.ListSubscribers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]signup.Subscriber{{Email: "reader@example.com", SubscribedAt: t0}}, got); diff != "" {
		t.Errorf("ListSubscribers (-want +got):\n%s", diff)
	}
}

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

func testACMECache(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	if _, err := db.CacheGet(ctx, "studio.example"); !errors.Is(err, store.ErrCacheMiss) {
		t.Fatalf("get of a missing key = %v, want ErrCacheMiss", err)
	}
	for _, data := range [][]byte{[]byte("first \x00 cert"), []byte("renewed cert")} {
		if err := db.CachePut(ctx, "studio.example", data); err != nil {
			t.Fatal(err)
		}
		got, err := db.CacheGet(ctx, "studio.example")
		if err != nil || string(got) != string(data) {
			t.Fatalf("get = %q, %v; want %q", got, err, data)
		}
	}
	if err := db.CacheDelete(ctx, "studio.example"); err != nil {
		t.Fatal(err)
	}
	if err := db.CacheDelete(ctx, "studio.example"); err != nil {
		t.Fatalf("deleting a missing key: %v", err)
	}
	if _, err := db.CacheGet(ctx, "studio.example"); !errors.Is(err, store.ErrCacheMiss) {
		t.Fatalf("get after delete = %v, want ErrCacheMiss", err)
	}
}

func testRateBuckets(t *testing.T, engine storetest.Engine) {
	cfg := engine.NewConfig(t)
	a, b := storetest.MustOpen(t, cfg), storetest.MustOpen(t, cfg) // two servers on one store
	ctx := context.Background()
	rate := ratelimit.Rate{N: 2, Per: time.Minute}
	take := func(db *store.DB, key string, at time.Time) (bool, time.Duration) {
		t.Helper()
		ok, retry, err := db.TakeToken(ctx, key, rate, at)
		if err != nil {
			t.Fatal(err)
		}
		return ok, retry
	}
	if ok, _ := take(a, "contact 192.0.2.1", t0); !ok {
		t.Fatal("first event refused")
	}
	if ok, _ := take(b, "contact 192.0.2.1", t0); !ok {
		t.Fatal("second event (on the other server) refused")
	}
	if ok, retry := take(a, "contact 192.0.2.1", t0.Add(time.Second)); ok || retry != 29*time.Second {
		t.Errorf("third event = %v, retry %v; want refused, retry 29s", ok, retry)
	}
	if ok, _ := take(b, "contact 192.0.2.2", t0.Add(time.Second)); !ok {
		t.Error("another client was refused")
	}
	if ok, _ := take(b, "contact 192.0.2.1", t0.Add(31*time.Second)); !ok {
		t.Error("refused after a token came back")
	}

	// Many events at once from two servers: exactly the rate is allowed.
	many := ratelimit.Rate{N: 5, Per: time.Hour}
	var allowed sync.WaitGroup
	var mu sync.Mutex
	n := 0
	for i := range 20 {
		allowed.Add(1)
		go func() {
			defer allowed.Done()
			db := []*store.DB{a, b}[i%2]
			ok, _, err := db.TakeToken(ctx, "burst", many, t0)
			if err != nil {
				t.Error(err)
				return
			}
			if ok {
				mu.Lock()
				n++
				mu.Unlock()
			}
		}()
	}
	allowed.Wait()
	if n != many.N {
		t.Errorf("%d of 20 concurrent events allowed, want %d", n, many.N)
	}
}
