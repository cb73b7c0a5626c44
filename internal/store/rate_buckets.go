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
// twice. Buckets that are full again are deleted now and then: a bucket not
// found is a full one.
func (s *DB) TakeToken(ctx context.Context, key string, r ratelimit.Rate, now time.Time) (ok bool, retryAfter time.Duration, err error) {
	err = s.write(ctx, "take rate token", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO rate_buckets (key, tokens, at_ns, full_ns) VALUES (?, ?, ?, ?)
			ON CONFLICT (key) DO NOTHING`), key, float64(r.N), now.UnixNano(), now.UnixNano()); err != nil {
			return err
		}
		var tokens float64
		var atNs int64
		if err := tx.QueryRowContext(ctx, s.d.rebind(`SELECT tokens, at_ns FROM rate_buckets WHERE key = ?`+s.d.forUpdate), key).Scan(&tokens, &atNs); err != nil {
			return err
		}
		tokens, ok, retryAfter = ratelimit.Take(tokens, time.Unix(0, atNs), now, r)
		full := now.Add(time.Duration((float64(r.N) - tokens) * float64(r.Per) / float64(r.N)))
		_, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE rate_buckets SET tokens = ?, at_ns = ?, full_ns = ? WHERE key = ?`),
			tokens, now.UnixNano(), full.UnixNano(), key)
		return err
	})
	if err == nil && s.sweepDue(now) {
		// A full bucket and no bucket are the same: forgetting it changes nothing.
		_ = s.write(ctx, "sweep rate buckets", func(tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM rate_buckets WHERE full_ns < ?`), now.UnixNano())
			return err
		})
	}
	return ok, retryAfter, err
}

// bucketSweepInterval is how often a server deletes the full buckets.
const bucketSweepInterval = time.Minute

// sweepDue reports, at most once per bucketSweepInterval, that full buckets
// may be swept.
func (s *DB) sweepDue(now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if now.Sub(s.lastBucketSweep) < bucketSweepInterval {
		return false
	}
	s.lastBucketSweep = now
	return true
}
