// Package ratelimit limits how often one client may do something: at most N
// times per period, with the allowance coming back gradually (a token bucket
// that holds N and refills one token every period/N).
package ratelimit

import (
	"container/list"
	"fmt"
	"net/netip"
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

// MaxKeys bounds the buckets a Limiter keeps (a few hundred kilobytes):
// a flood of requests from distinct addresses does not grow its memory
// beyond that.
const MaxKeys = 10_000

// Limiter keeps one bucket per key. It is safe for concurrent use. Buckets
// that have refilled completely are forgotten (a full bucket and no bucket
// are the same), and at most MaxKeys are kept.
type Limiter struct {
	rate Rate
	now  func() time.Time

	mu      sync.Mutex
	buckets map[string]*list.Element // of *bucket, in recent
	recent  *list.List               // the buckets, the most recently used first
}

type bucket struct {
	key    string
	tokens float64
	at     time.Time // last used
}

// New returns a limiter of rate r. now is the clock (time.Now when nil).
func New(r Rate, now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	return &Limiter{rate: r, now: now, buckets: map[string]*list.Element{}, recent: list.New()}
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
	l.forgetFull(now)
	e := l.buckets[key]
	if e == nil {
		if len(l.buckets) >= MaxKeys {
			l.forget(l.recent.Back())
		}
		e = l.recent.PushFront(&bucket{key: key, tokens: float64(l.rate.N), at: now})
		l.buckets[key] = e
	}
	l.recent.MoveToFront(e)
	b := e.Value.(*bucket)
	b.tokens, ok, retryAfter = Take(b.tokens, b.at, now, l.rate)
	b.at = now
	return ok, retryAfter
}

// forgetFull forgets the buckets unused for a whole period: they are full
// again. They are the least recently used ones, at the back.
func (l *Limiter) forgetFull(now time.Time) {
	for e := l.recent.Back(); e != nil && now.Sub(e.Value.(*bucket).at) >= l.rate.Per; e = l.recent.Back() {
		l.forget(e)
	}
}

// forget drops a bucket. Over MaxKeys, Allow drops the least recently used
// one, which has had the longest to refill. Pushing a given client's bucket
// out this way (to empty it for them) takes MaxKeys requests, each from
// another address and each allowed by this limit: someone who has that
// many addresses gets more by using each one's own allowance, so dropping
// buckets never lets a flood exceed the rate its addresses have anyway.
// The alternative, refusing new keys while full, would let that flood shut
// out every newcomer.
func (l *Limiter) forget(e *list.Element) {
	delete(l.buckets, e.Value.(*bucket).key)
	l.recent.Remove(e)
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

// Len is the number of clients the limiter remembers.
func (l *Limiter) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buckets)
}

// ipv6ClientBits is how much of an IPv6 address names one client: a site
// gets at least a /64 and picks addresses in it at will (privacy
// extensions), so a limit per whole address would be a limit per request.
const ipv6ClientBits = 64

// ClientKey is the key of the client at address addr for a per-client
// limit: an IPv4 address as it is, an IPv6 address's /64. A string that is
// not an address is its own key.
func ClientKey(addr string) string {
	a, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	a = a.Unmap().WithZone("")
	if a.Is4() {
		return a.String()
	}
	p, _ := a.Prefix(ipv6ClientBits) // an IPv6 address has 64 bits to keep
	return p.String()
}
