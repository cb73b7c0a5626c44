package ratelimit_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"studio/internal/ratelimit"
)

// clock is a fake clock the test moves by hand.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

func TestLimiter(t *testing.T) {
	type step struct {
		advance   time.Duration
		key       string
		wantOK    bool
		wantRetry time.Duration
	}
	tests := []struct {
		name  string
		rate  ratelimit.Rate
		steps []step
	}{
		{
			name: "five per ten minutes, then two minutes per message",
			rate: ratelimit.Rate{N: 5, Per: 10 * time.Minute},
			steps: []step{
				{0, "a", true, 0}, {0, "a", true, 0}, {0, "a", true, 0}, {0, "a", true, 0}, {0, "a", true, 0},
				{0, "a", false, 2 * time.Minute},
				{time.Minute, "a", false, time.Minute},
				{time.Minute, "a", true, 0},
				{0, "a", false, 2 * time.Minute},
			},
		},
		{
			name: "clients are counted apart",
			rate: ratelimit.Rate{N: 1, Per: time.Hour},
			steps: []step{
				{0, "a", true, 0}, {0, "a", false, time.Hour}, {0, "b", true, 0}, {0, "b", false, time.Hour},
			},
		},
		{
			name: "a full period refills the whole allowance, not more",
			rate: ratelimit.Rate{N: 2, Per: time.Minute},
			steps: []step{
				{0, "a", true, 0}, {0, "a", true, 0}, {0, "a", false, 30 * time.Second},
				{24 * time.Hour, "a", true, 0}, {0, "a", true, 0}, {0, "a", false, 30 * time.Second},
			},
		},
		{
			name:  "off allows everything",
			rate:  ratelimit.Rate{},
			steps: []step{{0, "a", true, 0}, {0, "a", true, 0}, {0, "a", true, 0}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &clock{time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
			l := ratelimit.New(tt.rate, c.now)
			for i, s := range tt.steps {
				c.advance(s.advance)
				ok, retry := l.Allow(s.key)
				if ok != s.wantOK || retry.Round(time.Millisecond) != s.wantRetry {
					t.Errorf("step %d: Allow(%q) = %v, %v; want %v, %v", i, s.key, ok, retry, s.wantOK, s.wantRetry)
				}
			}
		})
	}
}

func TestLimiterForgetsIdleClients(t *testing.T) {
	c := &clock{time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	l := ratelimit.New(ratelimit.Rate{N: 5, Per: 10 * time.Minute}, c.now)
	for _, k := range []string{"a", "b", "c"} {
		l.Allow(k)
	}
	c.advance(11 * time.Minute)
	l.Allow("d")
	if l.Len() != 1 {
		t.Errorf("remembers %d clients, want 1", l.Len())
	}
}

// floodAddresses is how many distinct client addresses the flood tests use.
const floodAddresses = 100_000

// floodAddress is the i-th address of a flood: distinct /64s of 2001:db8::/32.
func floodAddress(i int) string {
	return ratelimit.ClientKey(fmt.Sprintf("2001:db8:%x:%x::1", i>>16, i&0xffff))
}

// TestLimiterBoundedUnderFlood: requests from 100,000 distinct addresses
// within one period leave at most MaxKeys buckets; the buckets dropped are
// the least recently used, so a client that used its bucket lately is not
// emptied by a flood of fewer than MaxKeys other addresses.
func TestLimiterBoundedUnderFlood(t *testing.T) {
	c := &clock{time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	l := ratelimit.New(ratelimit.Rate{N: 2, Per: 10 * time.Minute}, c.now)
	most := 0
	for i := range floodAddresses {
		l.Allow(floodAddress(i))
		most = max(most, l.Len())
	}
	if most > ratelimit.MaxKeys {
		t.Errorf("%d addresses: up to %d buckets, want at most %d", floodAddresses, most, ratelimit.MaxKeys)
	}

	l.Allow("victim")
	l.Allow("victim")
	for i := range ratelimit.MaxKeys - 1 {
		l.Allow(floodAddress(floodAddresses + i))
	}
	if ok, _ := l.Allow("victim"); ok {
		t.Error("a flood of fewer than MaxKeys addresses emptied a recently used bucket")
	}
}

// TestClientKey: an IPv6 client is its /64; an IPv4 client its address.
func TestClientKey(t *testing.T) {
	tests := []struct{ addr, want string }{
		{"192.0.2.7", "192.0.2.7"},
		{"::ffff:192.0.2.7", "192.0.2.7"},
		{"2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"},
		{"2001:db8:1:2::1", "2001:db8:1:2::/64"},
		{"2001:db8:1:3::1", "2001:db8:1:3::/64"},
		{"fe80::1%eth0", "fe80::/64"},
		{"not an address", "not an address"},
	}
	for _, tt := range tests {
		if got := ratelimit.ClientKey(tt.addr); got != tt.want {
			t.Errorf("ClientKey(%q) = %q, want %q", tt.addr, got, tt.want)
		}
	}
}

func TestParseRate(t *testing.T) {
	tests := []struct {
		in      string
		want    ratelimit.Rate
		wantErr bool
	}{
		{"5/10m", ratelimit.Rate{N: 5, Per: 10 * time.Minute}, false},
		{"100/1h", ratelimit.Rate{N: 100, Per: time.Hour}, false},
		{"off", ratelimit.Rate{}, false},
		{"5", ratelimit.Rate{}, true},
		{"0/10m", ratelimit.Rate{}, true},
		{"-1/10m", ratelimit.Rate{}, true},
		{"5/ten", ratelimit.Rate{}, true},
		{"5/0s", ratelimit.Rate{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ratelimit.ParseRate(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if got := (ratelimit.Rate{N: 5, Per: 10 * time.Minute}).String(); got != "5/10m" {
		t.Errorf("String = %q, want 5/10m", got)
	}
}
