package notify

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// Outbox is where queued e-mails wait; see package store.
type Outbox interface {
	// ClaimEmails leases up to limit due e-mails until now+lease and counts
	// the attempt.
	ClaimEmails(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]Queued, error)
	MarkEmailSent(ctx context.Context, id int64, at time.Time) error
	RetryEmail(ctx context.Context, id int64, next time.Time, reason string) error
}

// Mailer delivers one e-mail.
type Mailer interface {
	Send(ctx context.Context, q Queued) error
}

// Sender delivers the outbox in the background. Delivery is at least once:
// an e-mail is marked sent only after the mail server accepted it, so a
// crash in between sends it again (with the same Message-ID). A failed
// attempt is retried after Backoff, for as long as it takes.
type Sender struct {
	Outbox Outbox
	Mailer Mailer
	Logger *slog.Logger
	// Secrets opens the bodies sealed while queued (Email.Sealed): the
	// secret key. A sealed mail it cannot open is a failed attempt, retried
	// as any other (a server with the right key may send it meanwhile).
	Secrets Sealer

	Now   func() time.Time // time.Now when nil
	Lease time.Duration    // how long a claimed e-mail is ours; 2 min when zero
	Poll  time.Duration    // how often to look for due e-mails; 5 s when zero
	// Backoff is the wait after the attempts-th failed attempt;
	// DefaultBackoff when nil.
	Backoff func(attempts int) time.Duration
	// Failed, when set, is called after each failed attempt (for metrics).
	Failed func()

	once sync.Once
	wake chan struct{}
}

// DefaultBackoff waits 10 s after the first failure, doubling up to an hour.
func DefaultBackoff(attempts int) time.Duration {
	d := 10 * time.Second
	for i := 1; i < attempts && d < time.Hour; i++ {
		d *= 2
	}
	return min(d, time.Hour)
}

const batch = 10

func (s *Sender) defaults() {
	if s.Now == nil {
		s.Now = time.Now
	}
	if s.Lease == 0 {
		s.Lease = 2 * time.Minute
	}
	if s.Poll == 0 {
		s.Poll = 5 * time.Second
	}
	if s.Backoff == nil {
		s.Backoff = DefaultBackoff
	}
	if s.Logger == nil {
		s.Logger = slog.New(slog.DiscardHandler)
	}
	s.initWake()
}

func (s *Sender) initWake() { s.once.Do(func() { s.wake = make(chan struct{}, 1) }) }

// Wake tells the sender that an e-mail was queued, so it need not wait for
// the next poll. It never blocks and is safe to call at any time.
func (s *Sender) Wake() {
	s.initWake()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Run delivers due e-mails until ctx is done: at start (what an earlier run
// left), when woken, and every Poll.
func (s *Sender) Run(ctx context.Context) {
	s.defaults()
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		case <-s.wake:
		}
		for ctx.Err() == nil {
			n, err := s.RunOnce(ctx)
			if err != nil {
				s.Logger.Error("outbox", "err", err)
			}
			if err != nil || n < batch {
				break
			}
		}
		timer.Reset(s.Poll)
	}
}

// RunOnce claims one batch of due e-mails and tries each once. It returns
// how many it claimed.
func (s *Sender) RunOnce(ctx context.Context) (int, error) {
	s.defaults()
	claimed, err := s.Outbox.ClaimEmails(ctx, s.Now(), s.Lease, batch)
	if err != nil {
		return 0, err
	}
	for _, q := range claimed {
		err := q.Email.OpenBody(s.Secrets)
		if err == nil {
			err = s.Mailer.Send(ctx, q)
		}
		if err != nil {
			next := s.Now().Add(s.Backoff(q.Attempts))
			s.Logger.Warn("notification e-mail failed; will retry", "outbox_id", q.ID, "attempt", q.Attempts, "retry_at", next, "err", err)
			if s.Failed != nil {
				s.Failed()
			}
			if err := s.Outbox.RetryEmail(ctx, q.ID, next, err.Error()); err != nil {
				s.Logger.Error("outbox: record failed attempt", "outbox_id", q.ID, "err", err)
			}
			continue
		}
		if err := s.Outbox.MarkEmailSent(ctx, q.ID, s.Now()); err != nil {
			s.Logger.Error("outbox: record delivery", "outbox_id", q.ID, "err", err)
			continue
		}
		s.Logger.Info("notification e-mail sent", "outbox_id", q.ID, "attempt", q.Attempts)
	}
	return len(claimed), nil
}
