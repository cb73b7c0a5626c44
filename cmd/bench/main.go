// Command bench measures a built studio binary, on SQLite and on
// PostgreSQL. It is a benchmark, not a test: it prints figures and fails
// only when requests fail.
//
// The functions scenario (make bench-functions) measures the contact
// function: how many messages per second it accepts with committed writes
// (closed loop, a fixed number of concurrent clients), and its p50/p99
// latency at a fixed request rate (open loop). The console scenario (make
// bench-console, console.go) measures the staff console's queries on a
// large inbox and the realtime fan-out.
//
//	PG_FSYNC=on scripts/with-postgres go run ./cmd/bench [--scenario console]
//
// PostgreSQL is the server named by STUDIO_TEST_DATABASE_URL; a new database
// is made there for the run and dropped after.
package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
)

func main() {
	binary := flag.String("binary", "bin/studio", "the studio binary to measure")
	engines := flag.String("engines", "sqlite,postgres", "stores to measure, comma-separated")
	concurrency := flag.Int("concurrency", 16, "concurrent clients in the throughput run")
	duration := flag.Duration("duration", 10*time.Second, "length of each measured run")
	rate := flag.Int("rate", 200, "requests per second in the latency run")
	scenario := flag.String("scenario", "functions", "what to measure: functions or console")
	messages := flag.Int("messages", 100_000, "console: contact messages in the store")
	requests := flag.Int("requests", 500, "console: requests per query")
	consoles := flag.Int("consoles", 200, "console: connected realtime consoles")
	flag.Parse()
	if *scenario == "console" {
		if err := benchConsole(*binary, strings.Split(*engines, ","), *messages, *requests, *consoles); err != nil {
			fmt.Fprintf(os.Stderr, "bench console: %v\n", err)
			os.Exit(1)
		}
		return
	}

	fmt.Printf("contact messages, %s per run, %d clients for throughput, %d req/s for latency\n\n", *duration, *concurrency, *rate)
	fmt.Printf("%-9s %14s %10s %10s %10s %8s\n", "store", "accepted/s", "p50", "p99", "max", "errors")
	failed := false
	for _, engine := range strings.Split(*engines, ",") {
		res, err := measure(*binary, engine, *concurrency, *duration, *rate)
		if err != nil {
			fmt.Fprintf(os.Stderr, "bench %s: %v\n", engine, err)
			failed = true
			continue
		}
		fmt.Printf("%-9s %14.0f %10s %10s %10s %8d\n", engine, res.throughput, ms(res.p50), ms(res.p99), ms(res.max), res.errors)
		if res.errors > 0 {
			failed = true
		}
	}
	if failed {
		os.Exit(1)
	}
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2fms", float64(d.Microseconds())/1000) }

type result struct {
	throughput    float64
	p50, p99, max time.Duration
	errors        int
}

// storeFor makes a new, empty store of engine for the server: the
// arguments and environment that select it, and a function that removes it.
func storeFor(engine string) (args, env []string, remove func(), err error) {
	env = os.Environ()
	switch engine {
	case "sqlite":
		dir, err := os.MkdirTemp("", "studio-bench-")
		if err != nil {
			return nil, nil, nil, err
		}
		return []string{"--data", dir}, env, func() { os.RemoveAll(dir) }, nil
	case "postgres":
		dbURL, drop, err := newDatabase()
		if err != nil {
			return nil, nil, nil, err
		}
		return nil, append(env, "DATABASE_URL="+dbURL), drop, nil
	}
	return nil, nil, nil, fmt.Errorf("unknown engine %q", engine)
}

func measure(binary, engine string, concurrency int, duration time.Duration, rate int) (result, error) {
	var res result
	storeArgs, env, remove, err := storeFor(engine)
	if err != nil {
		return res, err
	}
	defer remove()
	base, stop, err := start(binary, append([]string{"serve", "--addr", "127.0.0.1:0", "--rate-limit", "off"}, storeArgs...), env)
	if err != nil {
		return res, err
	}
	defer stop()

	client := &http.Client{
		Timeout:   10 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: concurrency * 4, MaxConnsPerHost: 0},
	}
	var seq atomic.Int64
	post := func() (time.Duration, error) {
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
		if _, err := post(); err != nil {
			return res, fmt.Errorf("warm-up: %w", err)
		}
	}

	// Throughput: closed loop, each client sends its next message when the
	// last one was answered.
	var accepted, errs atomic.Int64
	deadline := time.Now().Add(duration)
	var wg sync.WaitGroup
	t0 := time.Now()
	for range concurrency {
		wg.Go(func() {
			for time.Now().Before(deadline) {
				if _, err := post(); err != nil {
					errs.Add(1)
					continue
				}
				accepted.Add(1)
			}
		})
	}
	wg.Wait()
	res.throughput = float64(accepted.Load()) / time.Since(t0).Seconds()

	// Latency: open loop at a fixed rate, so a slow answer does not slow
	// the arrivals (no coordinated omission).
	var mu sync.Mutex
	var lat []time.Duration
	interval := time.Second / time.Duration(rate)
	total := int(duration / interval)
	start := time.Now()
	for i := range total {
		time.Sleep(time.Until(start.Add(time.Duration(i) * interval)))
		wg.Go(func() {
			d, err := post()
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs.Add(1)
				return
			}
			lat = append(lat, d)
		})
	}
	wg.Wait()
	slices.Sort(lat)
	if len(lat) > 0 {
		res.p50 = lat[len(lat)*50/100]
		res.p99 = lat[min(len(lat)-1, len(lat)*99/100)]
		res.max = lat[len(lat)-1]
	}
	res.errors = int(errs.Load())
	return res, nil
}

// start runs the server and returns its base URL and a function that stops it.
func start(binary string, args, env []string) (string, func(), error) {
	cmd := exec.Command(binary, args...)
	cmd.Env = env
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop := func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		var entry struct{ Msg, Addr string }
		if json.Unmarshal(lines.Bytes(), &entry) == nil && entry.Msg == "listening" {
			go func() { _, _ = io.Copy(io.Discard, stdout) }()
			return "http://" + entry.Addr, stop, nil
		}
	}
	stop()
	return "", nil, errors.New("the server did not start")
}

// newDatabase makes a new database on the server of STUDIO_TEST_DATABASE_URL.
func newDatabase() (string, func(), error) {
	admin := os.Getenv("STUDIO_TEST_DATABASE_URL")
	if admin == "" {
		return "", nil, errors.New("STUDIO_TEST_DATABASE_URL is not set: run under scripts/with-postgres (make bench does)")
	}
	db, err := sql.Open("pgx", admin)
	if err != nil {
		return "", nil, err
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "studio_bench_" + hex.EncodeToString(b)
	if _, err := db.ExecContext(context.Background(), "CREATE DATABASE "+name); err != nil {
		db.Close()
		return "", nil, err
	}
	u, err := url.Parse(admin)
	if err != nil {
		db.Close()
		return "", nil, err
	}
	u.Path = "/" + name
	drop := func() {
		_, _ = db.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
		db.Close()
	}
	return u.String(), drop, nil
}
