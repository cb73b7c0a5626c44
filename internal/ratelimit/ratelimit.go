// Package ratelimit limits how often one client may do something: at most N
// times per period, with the allowance coming back gradually (a token bucket
// that holds N and refills one token every period/N).
package ratelimit

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Rate is N events per Per. The zero Rate means no limit.
type Rate struct {
	N   int
	Per time.Duration
}

// Off reports whether the rate limits nothing.
func (r Rate) Off() bool { return r.N <= 0 || r.Per <= 0 }

func (r Rate) String() string {
	if r.Off() {
		return "off"
	}
	return fmt.Sprintf("%d/%s", r.N, shortDuration(r.Per))
}

func shortDuration(d time.Duration) string {
	s := d.String() // 10m0s, 1h0m0s
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// ParseRate parses "N/DURATION" (e.g. "5/10m") or "off".
func ParseRate(s string) (Rate, error) {
	if s == "off" {
		return Rate{}, nil
	}
	n, per, ok := strings.Cut(s, "/")
	count, err := strconv.Atoi(n)
	if !ok || err != nil || count <= 0 {
		return Rate{}, fmt.Errorf("rate %q: want N/DURATION, like 5/10m, or off", s)
	}
	d, err := time.ParseDuration(per)
	if err != nil || d <= 0 {
		return Rate{}, fmt.Errorf("rate %q: want N/DURATION, like 5/10m, or off", s)
	}
	return Rate{N: count, Per: d}, nil
}

// Limiter keeps one bucket per key. It is safe for concurrent use. Buckets
// that have refilled completely are forgotten, so memory stays bounded by
// the clients of the last period.
type Limiter struct {
	rate Rate
	now  func() time.Time

	mu        sync.Mutex
	buckets   map[string]*bucket
	lastSweep time.Time
}

type bucket struct {
	tokens float64
	at     time.Time
}

// New returns a limiter of rate r. now is the clock (time.Now when nil).
func New(r Rate, now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	return &Limiter{rate: r, now: now, buckets: map[string]*bucket{}}
}

// Allow takes one event for key. When the key is over its rate it returns
// false and how long until the next event would be allowed.
func (l *Limiter) Allow(key string) (ok bool, retryAfter time.Duration) {
	if l == nil || l.rate.Off() {
		return true, 0
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(now)
	b := l.buckets[key]
	if b == nil {
		b = &bucket{tokens: float64(l.rate.N), at: now}
		l.buckets[key] = b
	}
	b.tokens, ok, retryAfter = Take(b.tokens, b.at, now, l.rate)
	b.at = now
	return ok, retryAfter
}

// Take is one event against a bucket of rate r that held tokens at time at:
// it refills the bucket to now, takes a token if there is a whole one, and
// returns the tokens left, whether it took one, and otherwise how long until
// it could. A new bucket is full: Take(r.N, now, now, r).
func Take(tokens float64, at, now time.Time, r Rate) (left float64, ok bool, retryAfter time.Duration) {
	if elapsed := now.Sub(at); elapsed > 0 {
		tokens = min(float64(r.N), tokens+float64(r.N)*elapsed.Seconds()/r.Per.Seconds())
	}
	if tokens >= 1 {
		return tokens - 1, true, 0
	}
	interval := r.Per / time.Duration(r.N)
	return tokens, false, time.Duration((1 - tokens) * float64(interval))
}

// sweep forgets, at most once per period, the buckets that are full again.
func (l *Limiter) sweep(now time.Time) {
	if now.Sub(l.lastSweep) < l.rate.Per {
		return
	}
	l.lastSweep = now
	for k, b := range l.buckets {
		if now.Sub(b.at) >= l.rate.Per {
			delete(l.buckets, k)
		}
	}
}

// Len is the number of clients the limiter remembers.
func (l *Limiter) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buckets)
}
