package store

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"time"

	"studio/internal/breaker"
	"studio/internal/fault"
)

// The store's circuit breaker (package breaker; decision 0016 says why these
// numbers).
const (
	// callDeadline bounds each write and each hot point read on PostgreSQL,
	// within the request's own bound (api.StoreTimeout): a frozen or
	// unreachable server becomes a 503 in 2 s, not 15. Reads that may be
	// long (the console's lists and /rest/v1 selects), the migrations and
	// backups get none. SQLite gets none: its failures are immediate, and
	// its one connection makes a write wait behind a backup, which is no
	// outage.
	callDeadline = 2 * time.Second
	// breakerThreshold failures in a row (unavailable, or past the
	// deadline) open the breaker: calls then fail at once.
	breakerThreshold = 3
	// probeEvery is the wait, while the breaker is open, between a failure
	// and the next probe: service resumes within it of the store answering.
	probeEvery = 500 * time.Millisecond
	// retryShort is the Retry-After while the store just failed or is
	// being probed; retryLong while the breaker is open with no probe due.
	retryShort = 1 * time.Second
	retryLong  = 5 * time.Second
)

// newBreaker is the store's breaker; an outage is logged to logger once
// when it starts and once when it ends, with its length.
func newBreaker(engine string, logger *slog.Logger) *breaker.Breaker {
	return breaker.New(breaker.Config{
		Threshold: breakerThreshold, ProbeEvery: probeEvery, Short: retryShort, Long: retryLong,
		Changed: func(up bool, down time.Duration) {
			if up {
				logger.Info("store available again", "engine", engine, "down", down.Round(time.Millisecond).String())
			} else {
				logger.Error("store unavailable: calls fail at once until it answers again", "engine", engine)
			}
		},
	})
}

// Up reports whether the store's circuit breaker is closed: its writes
// have not failed as unavailable several times in a row, or one succeeded
// since.
func (s *DB) Up() bool { return s.brk.Up() }

// LastCommit is when a write of this server last committed; zero before
// the first.
func (s *DB) LastCommit() time.Time { return s.brk.LastCommit() }

// RetryAfter is how long a caller refused for the store's unavailability
// should wait before trying again: 1 s while it just failed or is being
// probed, 5 s while it is down. Every error of kind fault.Unavailable the
// store returns carries it too (fault.RetryAfter).
func (s *DB) RetryAfter() time.Duration { return s.brk.RetryAfter() }

// guard runs work, one call to the store named op, through the circuit
// breaker once the schema is ready: refused at once (fault.Unavailable)
// while the breaker is open; with write, the call may probe and its commit
// closes the breaker; with short, work's context has the call deadline on
// PostgreSQL. work's errors must be marked already (fail). An error of kind
// fault.Unavailable carries the breaker's Retry-After.
func (s *DB) guard(ctx context.Context, op string, write, short bool, work func(context.Context) error) error {
	probe, err := s.brk.Allow(write)
	if err != nil {
		return s.retryLater(fmt.Errorf("%s: %w", op, fault.Mark(fault.Unavailable, err)))
	}
	if err = s.ready(ctx); err != nil {
		err = fmt.Errorf("%s: %w", op, err)
	} else {
		callCtx := ctx
		if short && s.d.postgres {
			var cancel context.CancelFunc
			callCtx, cancel = context.WithTimeout(ctx, callDeadline)
			defer cancel()
		}
		err = work(callCtx)
	}
	s.brk.Done(write, probe, outcome(ctx, err))
	return s.retryLater(err)
}

// outcome is what err, the end of a call made for ctx, says of the store.
func outcome(ctx context.Context, err error) breaker.Outcome {
	switch {
	case err == nil || fault.KindOf(err) != fault.Unavailable:
		return breaker.Answered
	case ctx.Err() != nil: // the request ended or ran out of time first
		return breaker.Abandoned
	}
	return breaker.Failed
}

// retryLater gives err the breaker's Retry-After when it is of kind
// fault.Unavailable.
func (s *DB) retryLater(err error) error {
	if err == nil || fault.KindOf(err) != fault.Unavailable {
		return err
	}
	return fault.WithRetryAfter(err, s.brk.RetryAfter())
}

// ProbeCommit commits one tiny write that changes nothing anyone reads (a
// counter in the one row of store_probe), through the circuit breaker like
// any write: nil when this server can commit, and its success closes the
// breaker, so an idle server sees the store back without waiting for
// visitors. A ping or an empty transaction says nothing of a full disk; a
// commit does. Refused at once (fault.Unavailable) while the breaker is
// open with no probe due.
func (s *DB) ProbeCommit(ctx context.Context) error {
	return s.write(ctx, "probe commit", func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO store_probe (id, probes) VALUES (1, 1)
			ON CONFLICT (id) DO UPDATE SET probes = store_probe.probes + 1`)
		return err
	})
}
