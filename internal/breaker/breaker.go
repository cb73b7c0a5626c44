// Package breaker is a circuit breaker for calls to a store that may stop
// answering: after Threshold consecutive failures it opens and refuses
// calls at once (no caller queues behind a dead store), lets one probe
// through every ProbeEvery, and closes again when a write succeeds.
// Decision 0016 gives its numbers and why.
//
// A caller asks Allow before each call and reports its outcome with Done.
// Only writes close the breaker: a store that answers reads but refuses
// writes (a full disk) is not up. Reads count as failures while the breaker
// is closed, and are let through while it is open only when a probe is due
// and no write is probing, so an instance that only reads recovers too.
package breaker

import (
	"errors"
	"sync"
	"time"
)

// ErrOpen is Allow's refusal while the breaker is open.
var ErrOpen = errors.New("circuit breaker open: the store is not answering")

// Outcome is how a call ended, for Done.
type Outcome int

const (
	// Answered: the store did the work, or answered with a refusal that is
	// not its unavailability (a conflict, a row not found).
	Answered Outcome = iota
	// Failed: the store could not be reached, failed as unavailable or did
	// not answer in time.
	Failed
	// Abandoned: the caller gave up (its request ended) before the store
	// answered: this says nothing of the store.
	Abandoned
)

// Config holds a Breaker's numbers and its clock.
type Config struct {
	Threshold  int           // consecutive failures that open the breaker
	ProbeEvery time.Duration // while open, the wait after a failure before the next probe
	Short      time.Duration // Retry-After while closed or probing
	Long       time.Duration // Retry-After while open with no probe due
	Now        func() time.Time
	// Changed, when not nil, is called (outside the breaker's lock) when an
	// outage starts (up false, down 0) and when it ends (up true, down its
	// length).
	Changed func(up bool, down time.Duration)
}

// Breaker is safe for concurrent use.
type Breaker struct {
	cfg Config

	mu         sync.Mutex
	failures   int       // consecutive failures while closed
	open       bool      // the store is down
	probing    bool      // a probe is in flight (open only)
	nextProbe  time.Time // open only: no probe before
	downSince  time.Time // open only: when the outage started
	lastCommit time.Time // when a write last succeeded
}

// New returns a closed breaker.
func New(cfg Config) *Breaker {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Breaker{cfg: cfg}
}

// Allow reports whether a call may go to the store now: ErrOpen while the
// breaker is open, unless the call may probe (a write when a probe is due
// and none is in flight; a read when a probe is due and no write probes).
// probe says the call is the probe; the caller must then report it to
// Done whatever happens.
func (b *Breaker) Allow(write bool) (probe bool, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case !b.open:
		return false, nil
	case b.probing || b.cfg.Now().Before(b.nextProbe):
		return false, ErrOpen
	case write:
		b.probing = true
		return true, nil
	}
	return false, nil
}

// Done reports the outcome of a call Allow let through; probe is what Allow
// said.
func (b *Breaker) Done(write, probe bool, o Outcome) {
	b.mu.Lock()
	now := b.cfg.Now()
	if probe {
		b.probing = false
	}
	var changed func()
	switch {
	case o == Abandoned:
	case o == Failed && !b.open:
		if b.failures++; b.failures >= b.cfg.Threshold {
			b.open, b.downSince, b.nextProbe = true, now, now.Add(b.cfg.ProbeEvery)
			changed = func() { b.cfg.Changed(false, 0) }
		}
	case o == Failed:
		if probe {
			b.nextProbe = now.Add(b.cfg.ProbeEvery)
		}
	case write: // a commit
		b.failures, b.lastCommit = 0, now
		if b.open {
			b.open = false
			down := now.Sub(b.downSince)
			changed = func() { b.cfg.Changed(true, down) }
		}
	}
	b.mu.Unlock()
	if changed != nil && b.cfg.Changed != nil {
		changed()
	}
}

// Up reports whether the breaker is closed: the store's last writes did
// not fail Threshold times in a row, or one succeeded since.
func (b *Breaker) Up() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return !b.open
}

// RetryAfter is the wait to tell a caller refused for the store's
// unavailability: Long while the breaker is open and refuses every call,
// Short while it is closed (a failure that may pass at once) or a probe is
// due or in flight.
func (b *Breaker) RetryAfter() time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.open && !b.probing && b.cfg.Now().Before(b.nextProbe) {
		return b.cfg.Long
	}
	return b.cfg.Short
}

// LastCommit is when a write last succeeded; zero before the first.
func (b *Breaker) LastCommit() time.Time {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.lastCommit
}
