package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"
)

// The auth workload: each client signs in once (a code from "studio staff
// sign-in-code", traded at /auth/v1/verify), then refreshes its session
// over and over (each grant rotates the refresh token, a committed write),
// and in a second run reads GET /auth/v1/user with its access token (a
// token check and a session read). Rate limits are off for the run. Last,
// the time POST /otp and /recover take for staff and for others, one
// address at a time (the per-address mail limit), interleaved: they must
// not tell who is staff.

func benchAuth(binary string, engines []string, concurrency int, duration time.Duration) (failed bool) {
	fmt.Printf("staff auth, %s per run, %d clients (closed loop), each with its own session\n\n", duration, concurrency)
	fmt.Printf("%-9s %-20s %12s %10s %10s %10s %8s\n", "store", "request", "per second", "p50", "p99", "max", "errors")
	for _, engine := range engines {
		runs, err := measureAuth(binary, engine, concurrency, duration)
		if err != nil {
			fmt.Fprintf(os.Stderr, "bench %s: %v\n", engine, err)
			failed = true
			continue
		}
		for _, r := range runs {
			perSecond := "-" // one request at a time
			if r.throughput > 0 {
				perSecond = fmt.Sprintf("%.0f", r.throughput)
			}
			fmt.Printf("%-9s %-20s %12s %10s %10s %10s %8d\n", engine, r.name, perSecond, ms(r.p50), ms(r.p99), ms(r.max), r.errors)
			failed = failed || r.errors > 0
		}
	}
	return failed
}

type namedResult struct {
	name string
	result
}

// session is what a client keeps of its sign-in.
type session struct {
	AccessToken  string `json:"access_token"`
	RefreshToken string `json:"refresh_token"`
}

func measureAuth(binary, engine string, concurrency int, duration time.Duration) ([]namedResult, error) {
	st, err := newStore(engine)
	if err != nil {
		return nil, err
	}
	defer st.cleanup()
	const email = "bench@studio.test"
	if _, err := st.cli(binary, "staff", "add", email); err != nil {
		return nil, err
	}
	base, stop, err := start(binary, append([]string{"serve", "--addr", "127.0.0.1:0",
		"--auth-rate-limit", "off", "--auth-refresh-rate-limit", "off"}, st.args...), st.env)
	if err != nil {
		return nil, err
	}
	defer stop()
	client := newHTTPClient(concurrency)

	sessions := make([]session, concurrency)
	for i := range sessions {
		if sessions[i], err = signIn(client, st, binary, base, email); err != nil {
			return nil, err
		}
	}

	refresh := func(i int) (time.Duration, error) {
		t0 := time.Now()
		err := call(client, "POST", base+"/auth/v1/token?grant_type=refresh_token",
			fmt.Sprintf(`{"refresh_token":%q}`, sessions[i].RefreshToken), "", &sessions[i])
		return time.Since(t0), err
	}
	getUser := func(i int) (time.Duration, error) {
		t0 := time.Now()
		err := call(client, "GET", base+"/auth/v1/user", "", sessions[i].AccessToken, nil)
		return time.Since(t0), err
	}
	for i := range sessions { // warm up
		for _, op := range []func(int) (time.Duration, error){refresh, getUser} {
			if _, err := op(i); err != nil {
				return nil, fmt.Errorf("warm-up: %w", err)
			}
		}
	}
	runs := []namedResult{
		{"refresh grant", closedLoop(concurrency, duration, refresh)},
		{"GET /user", closedLoop(concurrency, duration, getUser)},
	}
	timed, err := timeStaffAndOthers(client, st, binary, base)
	return append(runs, timed...), err
}

// timeStaffAndOthers times POST /otp and /recover for 200 members of staff
// and as many other addresses each, interleaved, one request at a time,
// each to an address of its own (the per-address mail limit).
func timeStaffAndOthers(client *http.Client, st store, binary, base string) ([]namedResult, error) {
	const pairs = 200
	var runs []namedResult
	for _, path := range []string{"/auth/v1/otp", "/auth/v1/recover"} {
		name := strings.TrimPrefix(path, "/auth/v1")
		timed := func(email string) (time.Duration, error) {
			t0 := time.Now()
			err := call(client, "POST", base+path, fmt.Sprintf(`{"email":%q}`, email), "", nil)
			return time.Since(t0), err
		}
		var known, unknown []time.Duration
		for i := range pairs {
			staff := fmt.Sprintf("staff%d%s@studio.test", i, name[1:])
			if _, err := st.cli(binary, "staff", "add", staff); err != nil {
				return nil, err
			}
			other := fmt.Sprintf("other%d%s@studio.test", i, name[1:])
			order := []string{staff, other}
			if i%2 == 1 { // neither always goes first
				order = []string{other, staff}
			}
			for _, email := range order {
				d, err := timed(email)
				if err != nil {
					return nil, err
				}
				if email == staff {
					known = append(known, d)
				} else {
					unknown = append(unknown, d)
				}
			}
		}
		runs = append(runs, namedResult{"POST " + name + " staff", percentiles(known)},
			namedResult{"POST " + name + " other", percentiles(unknown)})
	}
	return runs, nil
}

// signIn signs email in with a code printed by "studio staff sign-in-code".
func signIn(client *http.Client, st store, binary, base, email string) (session, error) {
	var s session
	code, err := st.cli(binary, "staff", "sign-in-code", email)
	if err != nil {
		return s, err
	}
	body := fmt.Sprintf(`{"email":%q,"token":%q,"type":"email"}`, email, strings.TrimSpace(code))
	if err := call(client, "POST", base+"/auth/v1/verify", body, "", &s); err != nil {
		return s, fmt.Errorf("sign-in: %w", err)
	}
	return s, nil
}

// newStaff makes ada@studio.test staff and signs her in.
func newStaff(st store, binary, base string) (session, error) {
	const email = "ada@studio.test"
	if _, err := st.cli(binary, "staff", "add", email); err != nil {
		return session{}, fmt.Errorf("staff add: %w", err)
	}
	return signIn(http.DefaultClient, st, binary, base, email)
}

// call makes a request of the auth service and decodes a 200 answer into
// out (when not nil).
func call(client *http.Client, method, url, body, token string, out any) error {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("%s %s: %d %s", method, url, resp.StatusCode, msg)
	}
	if out == nil {
		_, err = io.Copy(io.Discard, resp.Body)
		return err
	}
	return json.NewDecoder(resp.Body).Decode(out)
}
