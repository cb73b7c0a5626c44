package store_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"studio/internal/auth"
	"studio/internal/ratelimit"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

const adaID = "00000000-0000-4000-8000-000000000001"

// inFlight is how many requests the race tests have in flight at once.
const inFlight = 32

// together runs do in n goroutines released at the same moment, and waits
// for them.
func together(n int, do func()) {
	start := make(chan struct{})
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			do()
		}()
	}
	close(start)
	wg.Wait()
}

// TestCodeTriesRace: with many wrong tries of one code in flight at once
// (on PostgreSQL, each in its own transaction), at most maxTries of them
// are compared with the code: each reads the tries the one before wrote.
func TestCodeTriesRace(t *testing.T) {
	const maxTries = auth.MaxCodeTries
	ctx := context.Background()
	tests := []struct {
		name    string
		purpose string
		pkce    bool
		try     func(db *store.DB)
	}{
		{"sign-in code", auth.PurposeSignIn, false, func(db *store.DB) {
			_ = db.ConsumeCode(ctx, adaID, auth.PurposeSignIn, "wrong", t0, maxTries, auth.AuditEntry{})
		}},
		{"PKCE verifier", auth.PurposeSignIn, true, func(db *store.DB) {
			_, _ = db.ConsumePKCE(ctx, "link", t0, maxTries, func(string, string) bool { return false })
		}},
		{"e-mail change code", auth.PurposeEmailChange, false, func(db *store.DB) {
			_, _ = db.ConsumeEmailChange(ctx, "new@studio.test", t0, maxTries, func(string, string) bool { return false }, auth.AuditEntry{})
		}},
	}
	for _, engine := range storetest.Engines() {
		for _, tt := range tests {
			t.Run(engine.Name+"/"+tt.name, func(t *testing.T) {
				cfg := engine.NewConfig(t)
				db := storetest.MustOpen(t, cfg)
				mustAddUser(t, db, staff(adaID, "ada@studio.test"))
				c := code(adaID, "hash", "link", t0)
				c.Purpose, c.NewEmail = tt.purpose, "new@studio.test"
				if tt.pkce {
					c.CodeChallenge, c.CodeChallengeMethod = "challenge", "s256"
				}
				if err := db.CreateCode(ctx, c, auth.AuditEntry{}); err != nil {
					t.Fatal(err)
				}
				together(inFlight, func() { tt.try(db) })
				var tries int
				if err := openRaw(t, cfg).QueryRow(`SELECT tries FROM auth_one_time_codes`).Scan(&tries); err != nil {
					t.Fatal(err)
				}
				if tries > maxTries {
					t.Errorf("%d tries of one code were compared, want at most %d", tries, maxTries)
				}
			})
		}
	}
}

// TestRateBucketsBoundedUnderFlood: requests from 100,000 distinct
// addresses within one period leave at most MaxRateBuckets rows (plus the
// requests in flight); a client that spent its allowance stays limited, as
// the buckets dropped are the ones nearest to full. PostgreSQL only: on
// SQLite the limits count in the process (ratelimit.Limiter).
func TestRateBucketsBoundedUnderFlood(t *testing.T) {
	const (
		addresses = 100_000
		workers   = 16
	)
	rate := ratelimit.Rate{N: 5, Per: 10 * time.Minute}
	for _, engine := range storetest.Engines()[1:] {
		t.Run(engine.Name, func(t *testing.T) {
			ctx := context.Background()
			cfg := engine.NewConfig(t)
			db := storetest.MustOpen(t, cfg)
			raw := openRaw(t, cfg)
			for range rate.N {
				if _, _, err := db.TakeToken(ctx, "victim", rate, t0); err != nil {
					t.Fatal(err)
				}
			}
			var most atomic.Int64
			next := atomic.Int64{}
			var wg sync.WaitGroup
			for range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := next.Add(1); i <= addresses; i = next.Add(1) {
						key := fmt.Sprintf("flood 2001:db8:%x:%x::/64", i>>16, i&0xffff)
						if _, _, err := db.TakeToken(ctx, key, rate, t0.Add(time.Second)); err != nil {
							t.Error(err)
							return
						}
						if i%250 == 0 {
							var n int64
							if err := raw.QueryRow(`SELECT COUNT(*) FROM rate_buckets`).Scan(&n); err != nil {
								t.Error(err)
								return
							}
							for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
							}
						}
					}
				}()
			}
			wg.Wait()
			if m := most.Load(); m > store.MaxRateBuckets+workers {
				t.Errorf("%d addresses: up to %d rows, want at most %d", addresses, m, store.MaxRateBuckets+workers)
			} else {
				t.Logf("%d addresses: up to %d rows", addresses, m)
			}
			if ok, _, err := db.TakeToken(ctx, "victim", rate, t0.Add(2*time.Second)); err != nil || ok {
				t.Errorf("the client that spent its allowance: TakeToken = %v, %v; want refused", ok, err)
			}
		})
	}
}
