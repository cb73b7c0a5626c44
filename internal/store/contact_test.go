package store_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"studio/internal/contact"
	"studio/internal/notify"
	"studio/internal/store/storetest"
)

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
