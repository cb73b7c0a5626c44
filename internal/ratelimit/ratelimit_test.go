package ratelimit_test

import (
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
