package store_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"studio/internal/ratelimit"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

func testRateBuckets(t *testing.T, engine storetest.Engine) {
	cfg := engine.NewConfig(t)
	a, b := storetest.MustOpen(t, cfg), storetest.MustOpen(t, cfg) // two servers on one store
	ctx := context.Background()
	rate := ratelimit.Rate{N: 2, Per: time.Minute}
	take := func(db *store.DB, key string, at time.Time) (bool, time.Duration) {
		t.Helper()
		ok, retry, err := db.TakeToken(ctx, key, rate, at)
		if err != nil {
			t.Fatal(err)
		}
		return ok, retry
	}
	if ok, _ := take(a, "contact 192.0.2.1", t0); !ok {
		t.Fatal("first event refused")
	}
	if ok, _ := take(b, "contact 192.0.2.1", t0); !ok {
		t.Fatal("second event (on the other server) refused")
	}
	if ok, retry := take(a, "contact 192.0.2.1", t0.Add(time.Second)); ok || retry != 29*time.Second {
		t.Errorf("third event = %v, retry %v; want refused, retry 29s", ok, retry)
	}
	if ok, _ := take(b, "contact 192.0.2.2", t0.Add(time.Second)); !ok {
		t.Error("another client was refused")
	}
	if ok, _ := take(b, "contact 192.0.2.1", t0.Add(31*time.Second)); !ok {
		t.Error("refused after a token came back")
	}

	// Many events at once from two servers: exactly the rate is allowed.
	many := ratelimit.Rate{N: 5, Per: time.Hour}
	var allowed sync.WaitGroup
	var mu sync.Mutex
	n := 0
	for i := range 20 {
		allowed.Add(1)
		go func() {
			defer allowed.Done()
			db := []*store.DB{a, b}[i%2]
			ok, _, err := db.TakeToken(ctx, "burst", many, t0)
			if err != nil {
				t.Error(err)
				return
			}
			if ok {
				mu.Lock()
				n++
				mu.Unlock()
			}
		}()
	}
	allowed.Wait()
	if n != many.N {
		t.Errorf("%d of 20 concurrent events allowed, want %d", n, many.N)
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
