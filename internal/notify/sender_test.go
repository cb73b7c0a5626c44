package notify_test

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"studio/internal/contact"
	"studio/internal/notify"
	"studio/internal/notify/smtptest"
	"studio/internal/secretkey"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

func mailer(t *testing.T, addr string) *notify.SMTP {
	t.Helper()
	m, err := notify.ParseSMTPURL("smtp://" + smtptest.User + ":" + smtptest.Password + "@" + addr)
	if err != nil {
		t.Fatal(err)
	}
	m.Timeout = 5 * time.Second
	return m
}

var notifyCfg = contact.Notify{From: "Meridian Studio <site@studio.test>", To: []string{"team@studio.test", "founders@studio.test"}}

func submit(t *testing.T, db *store.DB, name string) contact.Message {
	t.Helper()
	svc := &contact.Service{Store: db, Notify: notifyCfg}
	m, err := svc.Submit(context.Background(), contact.Submission{Name: name, Email: "ada@example.com", Company: ptr("Acme"), Message: "Let's talk about an MVP.\nSecond line, naïve café."})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func ptr(s string) *string { return &s }

// runSender runs a sender with short waits until the test ends.
func runSender(t *testing.T, db *store.DB, m notify.Mailer) (stop func()) {
	t.Helper()
	s := &notify.Sender{Outbox: db, Mailer: m, Poll: 20 * time.Millisecond, Lease: time.Second,
		Backoff: func(int) time.Duration { return 30 * time.Millisecond }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); s.Run(ctx) }()
	stop = func() { cancel(); <-done }
	t.Cleanup(stop)
	return stop
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestSenderRetriesAFlakyServer: the mail server refuses the first two
// attempts; the third delivers the e-mail, once, to every recipient.
func TestSenderRetriesAFlakyServer(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			db := engine.New(t)
			ms := smtptest.Start(t, 2)
			m := submit(t, db, "Ada Lovelace")
			runSender(t, db, mailer(t, ms.Addr))
			<-ms.Arrived
			waitFor(t, "the delivery to be recorded", func() bool {
				out, _ := db.ListOutbox(context.Background())
				return len(out) == 1 && out[0].Sent
			})
			out, _ := db.ListOutbox(context.Background())
			if out[0].Attempts != 3 || out[0].ContactMessageID != m.ID {
				t.Errorf("outbox = %+v, want sent on the third attempt", out[0])
			}
			received := ms.Received()
			if ms.Attempts() != 3 || len(received) != 1 {
				t.Fatalf("server saw %d attempts and %d messages, want 3 and 1", ms.Attempts(), len(received))
			}
			if fmt.Sprint(received[0].To) != "[team@studio.test founders@studio.test]" || received[0].From != "site@studio.test" {
				t.Errorf("envelope = %s → %v", received[0].From, received[0].To)
			}
			for _, want := range []string{
				"From: Meridian Studio <site@studio.test>", "Reply-To: ada@example.com",
				"Subject: New contact message from Ada Lovelace", "Message-ID: <outbox-1-",
				"Company:  Acme", "Let's talk about an MVP.", "na=C3=AFve caf=C3=A9", m.ID,
			} {
				if !strings.Contains(received[0].Data, want) {
					t.Errorf("e-mail lacks %q:\n%s", want, received[0].Data)
				}
			}
		})
	}
}

// TestSenderSurvivesRestarts: while the mail server is down, messages are
// accepted and queued; a sender started later (a new process on the same
// store) delivers them.
func TestSenderSurvivesRestarts(t *testing.T) {
	cfg := store.Config{DataDir: t.TempDir()}
	db := storetest.MustOpen(t, cfg)

	// No mail server listens here.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	deadAddr := ln.Addr().String()
	ln.Close()
	stop := runSender(t, db, mailer(t, deadAddr))
	submit(t, db, "First")
	submit(t, db, "Second")
	waitFor(t, "failed attempts", func() bool {
		out, _ := db.ListOutbox(context.Background())
		return len(out) == 2 && out[0].Attempts >= 2 && out[0].LastError != ""
	})
	stop()
	db.Close()

	db = storetest.MustOpen(t, cfg)
	ms := smtptest.Start(t, 0)
	runSender(t, db, mailer(t, ms.Addr))
	waitFor(t, "both deliveries", func() bool {
		out, _ := db.ListOutbox(context.Background())
		return len(out) == 2 && out[0].Sent && out[1].Sent
	})
	if received := ms.Received(); len(received) != 2 {
		t.Errorf("%d e-mails delivered, want 2", len(ms.Received()))
	}
}

// TestSpamIsNotNotified: a honeypot submission queues no e-mail.
func TestSpamIsNotNotified(t *testing.T) {
	db := storetest.MustOpen(t, store.Config{DataDir: t.TempDir()})
	svc := &contact.Service{Store: db, Notify: notifyCfg}
	if _, err := svc.Submit(context.Background(), contact.Submission{Name: "Bot", Email: "b@example.com", Message: "x", Honeypot: "http://spam"}); err != nil {
		t.Fatal(err)
	}
	out, _ := db.ListOutbox(context.Background())
	if len(out) != 0 {
		t.Errorf("outbox = %+v, want nothing for spam", out)
	}
}

func TestDefaultBackoff(t *testing.T) {
	want := []time.Duration{10 * time.Second, 20 * time.Second, 40 * time.Second, 80 * time.Second}
	for i, w := range want {
		if got := notify.DefaultBackoff(i + 1); got != w {
			t.Errorf("DefaultBackoff(%d) = %v, want %v", i+1, got, w)
		}
	}
	if got := notify.DefaultBackoff(100); got != time.Hour {
		t.Errorf("DefaultBackoff(100) = %v, want 1h", got)
	}
}

func TestParseSMTPURL(t *testing.T) {
	tests := []struct {
		in      string
		want    notify.SMTP
		wantErr bool
	}{
		{"smtp://user:p%40ss@mail.example.com", notify.SMTP{Addr: "mail.example.com:587", Username: "user", Password: "p@ss", Timeout: time.Minute}, false},
		{"smtps://mail.example.com", notify.SMTP{Addr: "mail.example.com:465", ImplicitTLS: true, Timeout: time.Minute}, false},
		{"smtp://127.0.0.1:2525", notify.SMTP{Addr: "127.0.0.1:2525", Timeout: time.Minute}, false},
		{"http://mail.example.com", notify.SMTP{}, true},
		{"smtp://", notify.SMTP{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := notify.ParseSMTPURL(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if err == nil && *got != tt.want {
				t.Errorf("got %+v, want %+v", *got, tt.want)
			}
		})
	}
}

// TestSenderOpensSealedMail: a mail queued sealed is sent in clear by a
// sender with the secret key that sealed it; one with another key records
// a failed attempt and sends nothing.
func TestSenderOpensSealedMail(t *testing.T) {
	ctx := context.Background()
	db := storetest.MustOpen(t, store.Config{DataDir: t.TempDir()})
	key, _ := secretkey.NewRandomSecretKey()
	other, _ := secretkey.NewRandomSecretKey()
	mail := notify.Email{From: "site@studio.test", To: []string{"ada@studio.test"}, Subject: "Your sign-in code",
		Body: "Your code is:\n\n    424242\n"}
	if err := mail.SealBody(key); err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateContactMessage(ctx, contact.Message{ID: "m1", ReceivedAt: time.Now(), Name: "Ada", Email: "ada@example.com",
		Message: "Hello"}, &mail); err != nil {
		t.Fatal(err)
	}
	ms := smtptest.Start(t, 0)
	wrong := &notify.Sender{Outbox: db, Mailer: mailer(t, ms.Addr), Secrets: other, Backoff: func(int) time.Duration { return 0 }}
	if n, err := wrong.RunOnce(ctx); err != nil || n != 1 {
		t.Fatalf("RunOnce with another key = %d, %v", n, err)
	}
	if out, _ := db.ListOutbox(ctx); len(out) != 1 || out[0].Sent || !strings.Contains(out[0].LastError, "sealed with secret key") {
		t.Fatalf("after another key: %+v; want a failed attempt saying why", out)
	}
	right := &notify.Sender{Outbox: db, Mailer: mailer(t, ms.Addr), Secrets: key}
	if n, err := right.RunOnce(ctx); err != nil || n != 1 {
		t.Fatalf("RunOnce with the key = %d, %v", n, err)
	}
	received := ms.Received()
	if len(received) != 1 || !strings.Contains(received[0].Data, "    424242") {
		t.Fatalf("received %+v; want the mail in clear, once", received)
	}
}
