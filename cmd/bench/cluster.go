package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"time"
)

// benchCluster measures servers on one PostgreSQL behind nginx
// (deploy/nginx/studio.conf, run by web/cluster-tests/balancer.mjs):
// contact messages through the balancer with one server and with two, and
// the time a committed change takes to reach a console joined on the other
// server (LISTEN/NOTIFY).
func benchCluster(binary string, concurrency int, duration time.Duration, rate int) error {
	st, err := newStore("postgres")
	if err != nil {
		return err
	}
	defer st.cleanup()
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--rate-limit", "off", "--auth-rate-limit", "off",
		"--trusted-proxies", "127.0.0.1"}, st.args...)
	a, stopA, err := start(binary, args, st.env)
	if err != nil {
		return err
	}
	defer stopA()
	b, stopB, err := start(binary, args, st.env)
	if err != nil {
		return err
	}
	defer stopB()

	fmt.Printf("contact messages through nginx on one PostgreSQL, %s per run, %d clients for throughput, %d req/s for latency\n\n", duration, concurrency, rate)
	fmt.Printf("%-10s %14s %10s %10s %10s %8s\n", "servers", "accepted/s", "p50", "p99", "max", "errors")
	for _, servers := range [][]string{{a}, {a, b}} {
		lb, stop, err := startBalancer(servers)
		if err != nil {
			return err
		}
		res, err := loadContact(lb, concurrency, duration, rate)
		stop()
		if err != nil {
			return err
		}
		fmt.Printf("%-10d %14.0f %10s %10s %10s %8d\n", len(servers), res.throughput, ms(res.p50), ms(res.p99), ms(res.max), res.errors)
		if res.errors > 0 {
			return fmt.Errorf("%d requests failed", res.errors)
		}
	}

	staff, err := newStaff(st, binary, a)
	if err != nil {
		return err
	}
	const events = 200
	lat, err := fanOut(a, b, staff.AccessToken, 1, events)
	if err != nil {
		return fmt.Errorf("realtime across servers: %w", err)
	}
	fmt.Printf("\nlive event from one server to a console on the other, %d events (commit to arrival):\n", events)
	fmt.Printf("%-9s %-24s %10s %10s %10s\n", "store", "measure", "p50", "p99", "max")
	printLatencies("postgres", "across servers", lat)
	return nil
}

// startBalancer runs nginx round robin over the servers' base URLs; it
// returns the balancer's base URL and a function that stops it.
func startBalancer(servers []string) (string, func(), error) {
	cmd := exec.Command("node", append([]string{"web/cluster-tests/balancer.mjs"}, servers...)...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return "", nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop := func() { stdin.Close(); _ = cmd.Wait() }
	line := bufio.NewScanner(stdout)
	if !line.Scan() {
		stop()
		return "", nil, fmt.Errorf("nginx did not start")
	}
	return line.Text(), stop, nil
}
