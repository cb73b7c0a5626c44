package auth_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"studio/internal/auth"
	"studio/internal/store/storetest"
)

// TestNoEnumerationByTiming: /otp, /recover, /resend and /verify (a wrong
// code, while the member of staff has a live one) take the same time for a
// member of staff and for an address that is not staff's, on PostgreSQL:
// the medians of 200 requests of each, interleaved, each to its own
// address, are within 10 %. It times the answer; the work left for after
// it (mailing the code) is waited for between requests, so that it does
// not slow the next one. A refused code waits 10 ms here (50 in
// production), which is more than the work takes.
func TestNoEnumerationByTiming(t *testing.T) {
	f := newFixture(t, storetest.Engines()[1], func(c *auth.Config) { c.FailedCodeFloor = 10 * time.Millisecond })
	const pairs, warmUp = 200, 20
	ctx := context.Background()
	staff, strangers := make([]auth.User, warmUp+pairs), make([]string, warmUp+pairs)
	for i := range staff {
		staff[i] = auth.User{ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", i), Email: fmt.Sprintf("staff%d@studio.test", i),
			CreatedAt: f.clock.Now(), UpdatedAt: f.clock.Now()}
		if err := f.db.CreateUser(ctx, staff[i], auth.AuditEntry{}); err != nil {
			t.Fatal(err)
		}
		strangers[i] = fmt.Sprintf("stranger%d@studio.test", i)
	}
	// liveCodes gives every member of staff a live code, to be tried once.
	liveCodes := func() {
		for _, u := range staff {
			_, _, c, err := auth.NewCode(u.ID, auth.PurposeSignIn, f.clock.Now(), time.Hour)
			if err == nil {
				err = f.db.CreateCode(ctx, c, auth.AuditEntry{})
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	kinds := []struct {
		name, path, body string
		status           int
		prepare          func()
	}{
		{"otp", "/auth/v1/otp", `{"email":%q}`, 200, nil},
		{"recover", "/auth/v1/recover", `{"email":%q}`, 200, nil},
		{"resend", "/auth/v1/resend", `{"type":"signup","email":%q}`, 200, nil},
		{"verify", "/auth/v1/verify", `{"type":"email","email":%q,"token":"wrong!"}`, 403, liveCodes},
	}
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			f.clock.Advance(auth.EmailInterval) // past the per-address limit of the last kind
			if k.prepare != nil {
				k.prepare()
			}
			timed := func(email string) time.Duration {
				r := httptest.NewRequest("POST", k.path, strings.NewReader(fmt.Sprintf(k.body, email)))
				r.Header.Set("Content-Type", "application/json")
				w := httptest.NewRecorder()
				start := time.Now()
				f.svc.ServeHTTP(w, r)
				took := time.Since(start)
				f.svc.Wait()
				if w.Code != k.status {
					t.Fatalf("%s for %s = %d %s", k.path, email, w.Code, w.Body)
				}
				return took
			}
			var known, unknown []time.Duration
			for i := range warmUp + pairs {
				// Alternate which goes first, so that neither always
				// follows the other.
				var s, u time.Duration
				if i%2 == 0 {
					s, u = timed(staff[i].Email), timed(strangers[i])
				} else {
					u, s = timed(strangers[i]), timed(staff[i].Email)
				}
				if i >= warmUp {
					known, unknown = append(known, s), append(unknown, u)
				}
			}
			ms, mu := median(known), median(unknown)
			ratio := float64(max(ms, mu)) / float64(min(ms, mu))
			t.Logf("median: staff %v, not staff %v (ratio %.3f)", ms, mu, ratio)
			if ratio > 1.10 {
				t.Errorf("staff and not staff differ by more than 10 %%: medians %v and %v", ms, mu)
			}
		})
	}
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}
