package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"studio/internal/notify"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

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

func testClaim(t *testing.T, engine storetest.Engine) {
	cfg := engine.NewConfig(t)
	db := storetest.MustOpen(t, cfg)
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
	// A sent e-mail's body (a sign-in code, a visitor's message) is not kept.
	var sentBody string
	if err := openRaw(t, cfg).QueryRow(`SELECT body FROM outbox WHERE id = $1`, first[0].ID).Scan(&sentBody); err != nil || sentBody != "" {
		t.Errorf("a sent e-mail's body = %.40q, %v; want it erased", sentBody, err)
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
