package ratelimit

import (
	"context"
	"time"
)

// Allower is a rate limit: Limiter counts in this process, Shared across
// every process on one store.
type Allower interface {
	Allow(key string) (ok bool, retryAfter time.Duration)
}

// Buckets keeps token buckets where several processes share them.
type Buckets interface {
	TakeToken(ctx context.Context, key string, r Rate, now time.Time) (ok bool, retryAfter time.Duration, err error)
}

// sharedTimeout bounds the wait for the shared buckets.
const sharedTimeout = 2 * time.Second

// Shared is a limit that counts across every server sharing its buckets
// (several instances on one PostgreSQL). When the buckets cannot be reached
// it counts in this process instead: a store that is down neither lifts the
// limit nor refuses everyone, and each server then allows at most the rate
// on its own (the store being down, the requests it limits fail anyway).
type Shared struct {
	name     string
	rate     Rate
	buckets  Buckets
	fallback *Limiter
	now      func() time.Time
	// unreachable, when set, is told each time the buckets could not be used.
	unreachable func(error)
}

// NewShared returns the limit name of rate r kept in buckets.
func NewShared(name string, r Rate, buckets Buckets, now func() time.Time, unreachable func(error)) *Shared {
	if now == nil {
		now = time.Now
	}
	if unreachable == nil {
		unreachable = func(error) {}
	}
	return &Shared{name: name, rate: r, buckets: buckets, fallback: New(r, now), now: now, unreachable: unreachable}
}

// Allow takes one event for key.
func (s *Shared) Allow(key string) (ok bool, retryAfter time.Duration) {
	if s.rate.Off() {
		return true, 0
	}
	ctx, cancel := context.WithTimeout(context.Background(), sharedTimeout)
	defer cancel()
	ok, retryAfter, err := s.buckets.TakeToken(ctx, s.name+" "+key, s.rate, s.now())
	if err != nil {
		s.unreachable(err)
		return s.fallback.Allow(key)
	}
	return ok, retryAfter
}

// For returns the limit name of rate r: kept in buckets when there are any
// (several servers share them), else counted in this process.
func For(name string, r Rate, buckets Buckets, now func() time.Time, unreachable func(error)) Allower {
	if buckets != nil {
		return NewShared(name, r, buckets, now, unreachable)
	}
	return New(r, now)
}
