package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"studio/internal/signup"
	"studio/internal/store/storetest"
)

func testWaitlist(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	steps := []struct {
		entry       signup.WaitlistEntry
		wantCreated bool
	}{
		{signup.WaitlistEntry{ProductID: "saas-2", Email: "ada@example.com", JoinedAt: t0}, true},
		{signup.WaitlistEntry{ProductID: "saas-2", Email: "ada@example.com", JoinedAt: t0.Add(time.Hour)}, false},
		{signup.WaitlistEntry{ProductID: "saas-3", Email: "ada@example.com", JoinedAt: t0.Add(time.Minute)}, true},
	}
	for _, s := range steps {
		created, err := db.JoinWaitlist(ctx, s.entry)
		if err != nil {
			t.Fatal(err)
		}
		if created != s.wantCreated {
			t.Errorf("JoinWaitlist(%+v) created = %v, want %v", s.entry, created, s.wantCreated)
		}
	}
	got, err := db.ListWaitlist(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []signup.WaitlistEntry{steps[0].entry, steps[2].entry}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ListWaitlist (-want +got):\n%s", diff)
	}
}

func testNewsletter(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	for i, wantCreated := range []bool{true, false} {
		created, err := db.Subscribe(ctx, signup.Subscriber{Email: "reader@example.com", SubscribedAt: t0.Add(time.Duration(i) * time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		if created != wantCreated {
			t.Errorf("Subscribe #%d created = %v, want %v", i+1, created, wantCreated)
		}
	}
	got, err := db.ListSubscribers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]signup.Subscriber{{Email: "reader@example.com", SubscribedAt: t0}}, got); diff != "" {
		t.Errorf("ListSubscribers (-want +got):\n%s", diff)
	}
}
