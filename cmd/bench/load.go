package main

import (
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"
)

func ms(d time.Duration) string { return fmt.Sprintf("%.2fms", float64(d.Microseconds())/1000) }

// result is what a run measured: requests answered per second and their
// latency.
type result struct {
	throughput    float64
	p50, p99, max time.Duration
	errors        int
}

func newHTTPClient(concurrency int) *http.Client {
	return &http.Client{
		Timeout:   10 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: concurrency * 4, MaxConnsPerHost: 0},
	}
}

// closedLoop runs op from concurrency clients for duration, each client
// sending its next request when the last one was answered; op gets the
// client's number.
func closedLoop(concurrency int, duration time.Duration, op func(client int) (time.Duration, error)) result {
	var mu sync.Mutex
	var lat []time.Duration
	var errs int
	deadline := time.Now().Add(duration)
	var wg sync.WaitGroup
	t0 := time.Now()
	for i := range concurrency {
		wg.Go(func() {
			var mine []time.Duration
			bad := 0
			for time.Now().Before(deadline) {
				d, err := op(i)
				if err != nil {
					bad++
					continue
				}
				mine = append(mine, d)
			}
			mu.Lock()
			defer mu.Unlock()
			lat, errs = append(lat, mine...), errs+bad
		})
	}
	wg.Wait()
	res := percentiles(lat)
	res.throughput = float64(len(lat)) / time.Since(t0).Seconds()
	res.errors = errs
	return res
}

// openLoop runs op at a fixed rate for duration, so a slow answer does not
// slow the arrivals (no coordinated omission).
func openLoop(rate int, duration time.Duration, op func() (time.Duration, error)) result {
	var mu sync.Mutex
	var lat []time.Duration
	var errs int
	var wg sync.WaitGroup
	interval := time.Second / time.Duration(rate)
	total := int(duration / interval)
	start := time.Now()
	for i := range total {
		time.Sleep(time.Until(start.Add(time.Duration(i) * interval)))
		wg.Go(func() {
			d, err := op()
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs++
				return
			}
			lat = append(lat, d)
		})
	}
	wg.Wait()
	res := percentiles(lat)
	res.errors = errs
	return res
}

func percentiles(lat []time.Duration) result {
	var res result
	slices.Sort(lat)
	if len(lat) > 0 {
		res.p50 = lat[len(lat)*50/100]
		res.p99 = lat[min(len(lat)-1, len(lat)*99/100)]
		res.max = lat[len(lat)-1]
	}
	return res
}
