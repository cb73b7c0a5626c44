// Command bench measures a built studio binary, on SQLite and on
// PostgreSQL. It is a benchmark, not a test: it prints figures and fails
// only when requests fail.
//
// The contact workload (make bench-functions): how many messages per second
// the contact function accepts with committed writes (closed loop, a fixed
// number of concurrent clients), and its p50/p99 latency at a fixed request
// rate (open loop).
//
// The auth workload (make bench-auth): refresh-token grants per second and
// GET /auth/v1/user per second, each client with its own staff session
// (closed loop), with the latency of those requests.
//
// The console workload (make bench-console, console.go): the staff
// console's queries on a large inbox, and the realtime fan-out.
//
// The analytics workload (make bench-analytics, analytics.go): the console's
// analytics screen over a year of counts at 100,000 views a day.
//
// The cluster workload (make bench-cluster, cluster.go): contact messages
// through nginx with one and with two servers on one PostgreSQL, and the
// time a change takes to reach a console on the other server.
//
//	PG_FSYNC=on scripts/with-postgres go run ./cmd/bench [--workload auth|console|analytics|cluster]
//
// PostgreSQL is the server named by STUDIO_TEST_DATABASE_URL; a new database
// is made there for the run and dropped after.
package main

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"time"
)

func main() {
	binary := flag.String("binary", "bin/studio", "the studio binary to measure")
	workload := flag.String("workload", "contact", "what to measure: contact, auth, console, analytics or cluster")
	engines := flag.String("engines", "sqlite,postgres", "stores to measure, comma-separated")
	concurrency := flag.Int("concurrency", 16, "concurrent clients in the throughput run")
	duration := flag.Duration("duration", 10*time.Second, "length of each measured run")
	rate := flag.Int("rate", 200, "requests per second in the latency run (contact)")
	messages := flag.Int("messages", 100_000, "console: contact messages in the store")
	requests := flag.Int("requests", 500, "console: requests per query")
	consoles := flag.Int("consoles", 200, "console: connected realtime consoles")
	viewsPerDay := flag.Int("views-per-day", 100_000, "analytics: views a day")
	flag.Parse()

	var failed bool
	switch *workload {
	case "contact":
		failed = benchContact(*binary, strings.Split(*engines, ","), *concurrency, *duration, *rate)
	case "auth":
		failed = benchAuth(*binary, strings.Split(*engines, ","), *concurrency, *duration)
	case "console":
		if err := benchConsole(*binary, strings.Split(*engines, ","), *messages, *requests, *consoles); err != nil {
			fmt.Fprintf(os.Stderr, "bench console: %v\n", err)
			failed = true
		}
	case "analytics":
		if err := benchAnalytics(*binary, strings.Split(*engines, ","), *viewsPerDay, *requests/5); err != nil {
			fmt.Fprintf(os.Stderr, "bench analytics: %v\n", err)
			failed = true
		}
	case "cluster":
		if err := benchCluster(*binary, *concurrency, *duration, *rate); err != nil {
			fmt.Fprintf(os.Stderr, "bench cluster: %v\n", err)
			failed = true
		}
	default:
		fmt.Fprintf(os.Stderr, "bench: unknown workload %q (contact, auth, console, analytics or cluster)\n", *workload)
		os.Exit(2)
	}
	if failed {
		os.Exit(1)
	}
}

func benchContact(binary string, engines []string, concurrency int, duration time.Duration, rate int) (failed bool) {
	fmt.Printf("contact messages, %s per run, %d clients for throughput, %d req/s for latency\n\n", duration, concurrency, rate)
	fmt.Printf("%-9s %14s %10s %10s %10s %8s\n", "store", "accepted/s", "p50", "p99", "max", "errors")
	for _, engine := range engines {
		res, err := measureContact(binary, engine, concurrency, duration, rate)
		if err != nil {
			fmt.Fprintf(os.Stderr, "bench %s: %v\n", engine, err)
			failed = true
			continue
		}
		fmt.Printf("%-9s %14.0f %10s %10s %10s %8d\n", engine, res.throughput, ms(res.p50), ms(res.p99), ms(res.max), res.errors)
		failed = failed || res.errors > 0
	}
	return failed
}

func measureContact(binary, engine string, concurrency int, duration time.Duration, rate int) (result, error) {
	var res result
	st, err := newStore(engine)
	if err != nil {
		return res, err
	}
	defer st.cleanup()
	base, stop, err := start(binary, append([]string{"serve", "--addr", "127.0.0.1:0", "--rate-limit", "off"}, st.args...), st.env)
	if err != nil {
		return res, err
	}
	defer stop()

	return loadContact(base, concurrency, duration, rate)
}

// loadContact measures the contact function at base: accepted messages per
// second from concurrency clients (closed loop), then the latency at rate
// requests per second (open loop).
func loadContact(base string, concurrency int, duration time.Duration, rate int) (result, error) {
	var res result
	client := newHTTPClient(concurrency)
	var seq atomic.Int64
	post := func(int) (time.Duration, error) {
		n := seq.Add(1)
		body := fmt.Sprintf(`{"name":"Bench %d","email":"bench@example.com","company":null,"phone":null,"message":"Benchmark message number %d, long enough to be realistic: we would like to discuss building an MVP for our SaaS idea."}`, n, n)
		t0 := time.Now()
		resp, err := client.Post(base+"/functions/v1/submit-contact", "application/json", strings.NewReader(body))
		if err != nil {
			return 0, err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return 0, fmt.Errorf("status %d", resp.StatusCode)
		}
		return time.Since(t0), nil
	}

	// Warm up: connections, caches, the first pages of the tables.
	for range 50 {
		if _, err := post(0); err != nil {
			return res, fmt.Errorf("warm-up: %w", err)
		}
	}
	closed := closedLoop(concurrency, duration, post)
	res.throughput = closed.throughput
	open := openLoop(rate, duration, func() (time.Duration, error) { return post(0) })
	res.p50, res.p99, res.max = open.p50, open.p99, open.max
	res.errors = closed.errors + open.errors
	return res, nil
}
