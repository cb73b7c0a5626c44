package ratelimit_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"studio/internal/ratelimit"
)

// downBuckets are buckets whose store cannot be reached.
type downBuckets struct{ calls int }

func (d *downBuckets) TakeToken(context.Context, string, ratelimit.Rate, time.Time) (bool, time.Duration, error) {
	d.calls++
	return false, 0, errors.New("connection refused")
}

// TestSharedFallsBackToThisProcess: with the store down, the limit is kept in
// this process: neither lifted nor refusing everyone.
func TestSharedFallsBackToThisProcess(t *testing.T) {
	var down downBuckets
	var reported []error
	s := ratelimit.NewShared("contact", ratelimit.Rate{N: 2, Per: time.Minute}, &down, nil, func(err error) { reported = append(reported, err) })
	for i, want := range []bool{true, true, false} {
		if ok, _ := s.Allow("192.0.2.1"); ok != want {
			t.Errorf("event %d: allowed %v, want %v", i+1, ok, want)
		}
	}
	if ok, _ := s.Allow("192.0.2.9"); !ok {
		t.Error("another client was refused")
	}
	if down.calls != 4 || len(reported) != 4 {
		t.Errorf("store asked %d times, %d failures reported; want 4 and 4", down.calls, len(reported))
	}
	off := ratelimit.NewShared("off", ratelimit.Rate{}, &down, nil, nil)
	if ok, _ := off.Allow("x"); !ok || down.calls != 4 {
		t.Error("a limit that is off asked the store or refused")
	}
}
