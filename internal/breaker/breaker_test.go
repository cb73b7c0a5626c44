package breaker_test

import (
	"errors"
	"testing"
	"time"

	"studio/internal/breaker"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }
func newBreaker(c *clock, log *[]string) *breaker.Breaker {
	return breaker.New(breaker.Config{
		Threshold: 3, ProbeEvery: 500 * time.Millisecond, Short: time.Second, Long: 5 * time.Second, Now: c.now,
		Changed: func(up bool, down time.Duration) {
			if up {
				*log = append(*log, "up after "+down.String())
			} else {
				*log = append(*log, "down")
			}
		},
	})
}

// call runs one call through b with outcome o and returns Allow's error.
func call(b *breaker.Breaker, write bool, o breaker.Outcome) error {
	probe, err := b.Allow(write)
	if err != nil {
		return err
	}
	b.Done(write, probe, o)
	return nil
}

func TestOpensAfterThresholdAndRefusesAtOnce(t *testing.T) {
	c := &clock{t: time.Unix(1000, 0)}
	var log []string
	b := newBreaker(c, &log)
	for i := 0; i < 2; i++ {
		if err := call(b, true, breaker.Failed); err != nil {
			t.Fatalf("failure %d refused: %v", i+1, err)
		}
	}
	if !b.Up() || b.RetryAfter() != time.Second {
		t.Fatalf("below the threshold: up %v, retry after %v; want up, 1s", b.Up(), b.RetryAfter())
	}
	if err := call(b, false, breaker.Failed); err != nil { // a read's failure counts too
		t.Fatal(err)
	}
	if b.Up() || b.RetryAfter() != 5*time.Second {
		t.Fatalf("at the threshold: up %v, retry after %v; want down, 5s", b.Up(), b.RetryAfter())
	}
	for _, write := range []bool{true, false} {
		if _, err := b.Allow(write); !errors.Is(err, breaker.ErrOpen) {
			t.Errorf("open, write %v: Allow = %v, want ErrOpen", write, err)
		}
	}
	if len(log) != 1 || log[0] != "down" {
		t.Errorf("log = %q, want one down", log)
	}
}

func TestCommitResetsTheCount(t *testing.T) {
	c := &clock{t: time.Unix(1000, 0)}
	var log []string
	b := newBreaker(c, &log)
	for _, step := range []struct {
		write bool
		o     breaker.Outcome
	}{
		{true, breaker.Failed}, {true, breaker.Failed}, {true, breaker.Answered},
		{true, breaker.Failed}, {true, breaker.Failed}, {false, breaker.Answered}, // a read does not reset
		{true, breaker.Abandoned}, // nor does a caller who gave up count
	} {
		if err := call(b, step.write, step.o); err != nil {
			t.Fatal(err)
		}
	}
	if !b.Up() {
		t.Fatal("down after two failures in a row")
	}
	if call(b, true, breaker.Failed); b.Up() {
		t.Fatal("up after three failures in a row")
	}
}

func TestHalfOpenLetsOneProbeThrough(t *testing.T) {
	c := &clock{t: time.Unix(1000, 0)}
	var log []string
	b := newBreaker(c, &log)
	for i := 0; i < 3; i++ {
		call(b, true, breaker.Failed)
	}
	c.advance(499 * time.Millisecond)
	if _, err := b.Allow(true); err == nil {
		t.Fatal("a probe before ProbeEvery")
	}
	c.advance(time.Millisecond)
	probe, err := b.Allow(true)
	if err != nil || !probe {
		t.Fatalf("probe due: Allow = %v, %v; want a probe", probe, err)
	}
	if _, err := b.Allow(true); err == nil {
		t.Error("a second write while the probe is in flight")
	}
	if _, err := b.Allow(false); err == nil {
		t.Error("a read while the probe is in flight")
	}
	if b.RetryAfter() != time.Second {
		t.Errorf("probing: retry after %v, want 1s", b.RetryAfter())
	}
	c.advance(2 * time.Second) // the probe times out
	b.Done(true, true, breaker.Failed)
	if b.Up() || b.RetryAfter() != 5*time.Second {
		t.Fatalf("failed probe: up %v, retry after %v; want down, 5s", b.Up(), b.RetryAfter())
	}
	if _, err := b.Allow(true); err == nil {
		t.Fatal("a probe right after a failed one")
	}
	c.advance(500 * time.Millisecond)
	if probe, err := b.Allow(false); err != nil || probe { // a read passes, but does not probe
		t.Fatalf("read with a probe due: Allow = %v, %v", probe, err)
	}
	b.Done(false, false, breaker.Answered)
	if b.Up() {
		t.Fatal("a read closed the breaker")
	}
	probe, err = b.Allow(true)
	if err != nil || !probe {
		t.Fatalf("second probe: Allow = %v, %v", probe, err)
	}
	b.Done(true, true, breaker.Answered)
	if !b.Up() || !b.LastCommit().Equal(c.t) {
		t.Fatalf("after a commit: up %v, last commit %v; want up, %v", b.Up(), b.LastCommit(), c.t)
	}
	if _, err := b.Allow(true); err != nil {
		t.Fatalf("closed: %v", err)
	}
	if want := []string{"down", "up after 3s"}; len(log) != 2 || log[0] != want[0] || log[1] != want[1] {
		t.Errorf("log = %q, want %q", log, want)
	}
}

func TestAbandonedProbeFreesTheSlot(t *testing.T) {
	c := &clock{t: time.Unix(1000, 0)}
	var log []string
	b := newBreaker(c, &log)
	for i := 0; i < 3; i++ {
		call(b, true, breaker.Failed)
	}
	c.advance(time.Second)
	probe, _ := b.Allow(true)
	b.Done(true, probe, breaker.Abandoned)
	if probe, err := b.Allow(true); err != nil || !probe {
		t.Fatalf("after an abandoned probe: Allow = %v, %v; want the next probe", probe, err)
	}
}
