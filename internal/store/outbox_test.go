package store_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"studio/internal/notify"
	"studio/internal/secretkey"
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

// testSealedMail: a mail queued sealed (a sign-in code) holds no byte of
// its body in the outbox, is never due to the previous release's sender
// (its claim query: next_attempt_at <= now), and is leased, retried and
// sent by this release's as any other; once sent, the sealed body is
// erased too.
func testSealedMail(t *testing.T, engine storetest.Engine) {
	cfg := engine.NewConfig(t)
	db := storetest.MustOpen(t, cfg)
	raw := openRaw(t, cfg)
	ctx := context.Background()
	key, err := secretkey.NewRandomSecretKey()
	if err != nil {
		t.Fatal(err)
	}
	const secret = "Your code is 123456, or open https://studio.test/admin?token_hash=s3cr3t-l1nk"
	sealed := notify.Email{From: "site@studio.test", To: []string{"ada@studio.test"}, Subject: "Your sign-in code", Body: secret}
	if err := sealed.SealBody(key); err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateContactMessage(ctx, message("m", t0), &sealed); err != nil {
		t.Fatal(err)
	}
	var body, sealedBody string
	if err := raw.QueryRow(`SELECT body, sealed_body FROM outbox`).Scan(&body, &sealedBody); err != nil {
		t.Fatal(err)
	}
	if body != "" || !secretkey.IsSealed([]byte(sealedBody)) || strings.Contains(sealedBody, "123456") || strings.Contains(sealedBody, "s3cr3t") {
		t.Errorf("stored body %q, sealed body %.40q; want the body sealed alone", body, sealedBody)
	}

	// The previous release's sender claims with this query; it must never
	// see the row, whose body it would send empty.
	later := any(t0.Add(1000 * 24 * time.Hour))
	if cfg.DatabaseURL == "" {
		later = t0.Add(1000 * 24 * time.Hour).Format("2006-01-02T15:04:05.000000Z")
	}
	var due int
	if err := raw.QueryRow(`SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL AND next_attempt_at <= $1`, later).Scan(&due); err != nil || due != 0 {
		t.Errorf("the previous release finds %d mails due, %v; want none", due, err)
	}

	if got, _ := db.ClaimEmails(ctx, t0.Add(-time.Second), time.Minute, 10); len(got) != 0 {
		t.Fatalf("claimed %d before it was due", len(got))
	}
	claimed, err := db.ClaimEmails(ctx, t0, time.Minute, 10)
	if err != nil || len(claimed) != 1 || claimed[0].Attempts != 1 {
		t.Fatalf("claimed %+v, %v; want the sealed mail", claimed, err)
	}
	if got, _ := db.ClaimEmails(ctx, t0.Add(30*time.Second), time.Minute, 10); len(got) != 0 {
		t.Fatalf("claimed %d during the lease", len(got))
	}
	q := claimed[0]
	if err := q.Email.OpenBody(key); err != nil || q.Email.Body != secret {
		t.Fatalf("opened body %q, %v", q.Email.Body, err)
	}
	other, _ := secretkey.NewRandomSecretKey()
	if again := claimed[0]; again.Email.OpenBody(other) == nil {
		t.Error("the sealed body opened with another key")
	}
	if err := db.RetryEmail(ctx, q.ID, t0.Add(10*time.Minute), "smtp down"); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.ClaimEmails(ctx, t0.Add(5*time.Minute), time.Minute, 10); len(got) != 0 {
		t.Fatalf("claimed %d before the retry time", len(got))
	}
	if n, err := db.OutboxDepth(ctx); err != nil || n != 1 {
		t.Errorf("outbox depth = %d, %v; want 1", n, err)
	}
	claimed, err = db.ClaimEmails(ctx, t0.Add(11*time.Minute), time.Minute, 10)
	if err != nil || len(claimed) != 1 || claimed[0].Attempts != 2 {
		t.Fatalf("after the retry time claimed %+v, %v", claimed, err)
	}
	if err := db.MarkEmailSent(ctx, q.ID, t0.Add(11*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := raw.QueryRow(`SELECT body, sealed_body FROM outbox`).Scan(&body, &sealedBody); err != nil || body != "" || sealedBody != "" {
		t.Errorf("after sending: body %q, sealed body %.40q, %v; want both erased", body, sealedBody, err)
	}
	if n, err := db.OutboxDepth(ctx); err != nil || n != 0 {
		t.Errorf("outbox depth = %d, %v; want 0", n, err)
	}
}
