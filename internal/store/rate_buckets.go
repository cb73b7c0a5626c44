package store

import (
	"context"
	"database/sql"
	"time"

	"studio/internal/ratelimit"
)

// TakeToken takes one event from the token bucket of key at rate r, shared
// by every server on this store: the bucket is read and written in one
// transaction that holds its row, so two servers never spend one token
// twice. A bucket not found is a full one: buckets are deleted now and then
// (sweepBuckets).
func (s *DB) TakeToken(ctx context.Context, key string, r ratelimit.Rate, now time.Time) (ok bool, retryAfter time.Duration, err error) {
	added := false
	err = s.write(ctx, "take rate token", func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO rate_buckets (key, tokens, at_ns, full_ns) VALUES (?, ?, ?, ?)
			ON CONFLICT (key) DO NOTHING`), key, float64(r.N), now.UnixNano(), now.UnixNano())
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		added = n == 1
		var tokens float64
		var atNs int64
		if err := tx.QueryRowContext(ctx, s.d.rebind(`SELECT tokens, at_ns FROM rate_buckets WHERE key = ?`+s.d.forUpdate), key).Scan(&tokens, &atNs); err != nil {
			return err
		}
		tokens, ok, retryAfter = ratelimit.Take(tokens, time.Unix(0, atNs), now, r)
		full := now.Add(time.Duration((float64(r.N) - tokens) * float64(r.Per) / float64(r.N)))
		_, err = tx.ExecContext(ctx, s.d.rebind(`UPDATE rate_buckets SET tokens = ?, at_ns = ?, full_ns = ? WHERE key = ?`),
			tokens, now.UnixNano(), full.UnixNano(), key)
		return err
	})
	if err == nil {
		s.sweepIfDue(ctx, now, added)
	}
	return ok, retryAfter, err
}

// The rate_buckets table stays small under a flood of requests from
// distinct addresses. Each server sweeps it once it added bucketSweepEvery
// buckets, or a bucketSweepInterval after its last sweep: the full buckets
// go, then the ones nearest to full, down to MaxRateBuckets -
// bucketSweepEvery. While a server sweeps, its requests that add a bucket
// wait. So one server keeps at most MaxRateBuckets rows, plus one
// per request in flight; k servers, (k-1)*bucketSweepEvery more.
//
// Deleting a bucket refills it at once, so the one nearest to full gains
// the least. A flood from new addresses leaves buckets one token short,
// full again after Per/N; a client that spent its allowance is full only
// after up to Per, so it goes last: to push it out, the flood must drain
// MaxRateBuckets other buckets deeper than it, which takes more requests
// allowed by the limit than the bucket ever held.
const (
	MaxRateBuckets      = 10_000
	bucketSweepEvery    = 1_000
	bucketSweepInterval = time.Minute
)

// sweepBuckets deletes the full buckets, and the ones nearest to full over
// MaxRateBuckets - bucketSweepEvery. On PostgreSQL the sweeps take turns:
// two deleting the same rows in different orders would deadlock.
func (s *DB) sweepBuckets(ctx context.Context, now time.Time) error {
	return s.write(ctx, "sweep rate buckets", func(ctx context.Context, tx *sql.Tx) error {
		if s.d.postgres {
			if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(7361627) -- any constant shared by all studio servers`); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM rate_buckets WHERE full_ns < ?`), now.UnixNano()); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM rate_buckets`).Scan(&n); err != nil {
			return err
		}
		over := n - (MaxRateBuckets - bucketSweepEvery)
		if over <= 0 {
			return nil
		}
		_, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM rate_buckets WHERE key IN
			(SELECT key FROM rate_buckets ORDER BY full_ns, key LIMIT ?)`), over)
		return err
	})
}

// sweepIfDue counts the bucket this request added, if any, and sweeps the
// buckets when that is due. One request of this server sweeps at a time;
// the requests that added a bucket wait for it, so that a flood does not
// outrun the sweep, and the others go on.
func (s *DB) sweepIfDue(ctx context.Context, now time.Time, added bool) {
	if added {
		s.sweepMu.Lock()
	} else if !s.sweepMu.TryLock() {
		return
	}
	defer s.sweepMu.Unlock()
	if added {
		s.bucketsAdded++
	}
	if s.bucketsAdded < bucketSweepEvery && now.Sub(s.lastBucketSweep) < bucketSweepInterval {
		return
	}
	s.lastBucketSweep, s.bucketsAdded = now, 0
	_ = s.sweepBuckets(ctx, now) // a sweep that fails is done by the next one
}
