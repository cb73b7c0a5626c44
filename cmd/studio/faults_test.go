package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"studio/internal/store/storetest"
)

// slowestAnswer is the longest a request may wait during a store fault: the
// store's 2 s call deadline (internal/store/guard.go) plus a second of
// margin, because the test shares a small, loaded CI machine with others.
const slowestAnswer = 3 * time.Second

// TestFaults injects PostgreSQL faults into a cluster of its own while a
// light contact load runs against "studio serve": restarts (fast, and
// immediate with 5 s down) and an 8 s freeze (SIGSTOP). No answer waits past
// the store's deadline, every 503 says when to retry, no acknowledged
// message is lost, /readyz reports the freeze and service resumes soon after.
// go test -v -run TestFaults prints the figures.
func TestFaults(t *testing.T) {
	pg := startOwnPostgres(t)
	data := t.TempDir()
	env := []string{"DATABASE_URL=" + pg.url}
	base, _ := startStudio(t, env, "--addr", "127.0.0.1:0", "--rate-limit", "off", "--data", data)

	restarts := []struct {
		name string
		mode string        // pg_ctl stop -m
		down time.Duration // between stop and start
	}{
		{"restart fast", "fast", 0},
		{"restart immediate, 5 s down", "immediate", 5 * time.Second},
	}
	for _, r := range restarts {
		t.Run(r.name, func(t *testing.T) {
			l := startLoad(base)
			time.Sleep(time.Second)
			faultAt := time.Now()
			pg.ctl(t, "stop", "-m", r.mode)
			time.Sleep(r.down)
			pg.ctl(t, "start")
			backAt := time.Now()
			resumed := l.firstOKAfter(t, backAt, 10*time.Second)
			l.stop()
			l.check(t, faultAt, backAt, resumed)
			wantAllStored(t, env, data, l)
		})
	}

	t.Run("frozen 8 s", func(t *testing.T) {
		l := startLoad(base)
		time.Sleep(time.Second)
		pids := pg.processes(t)
		faultAt := time.Now()
		signalAll(t, pids, syscall.SIGSTOP)
		thawed := false
		defer func() {
			if !thawed {
				signalAll(t, pids, syscall.SIGCONT)
			}
		}()
		unready := firstUnready(base, 4*time.Second)
		if unready < 0 {
			t.Errorf("/readyz did not answer 503 within 4 s of the freeze")
		} else {
			t.Logf("/readyz answered 503 %v after the freeze", unready.Round(time.Millisecond))
			if unready > slowestAnswer {
				t.Errorf("/readyz answered 503 only %v after the freeze, want within %v", unready, slowestAnswer)
			}
		}
		time.Sleep(time.Until(faultAt.Add(8 * time.Second)))
		thawAt := time.Now()
		signalAll(t, pids, syscall.SIGCONT)
		thawed = true
		resumed := l.firstOKAfter(t, thawAt, 10*time.Second)
		l.stop()
		l.check(t, faultAt, thawAt, resumed)
		// Service resumes within the breaker's probe interval (0.5 s) and a
		// write: well under a second when idle (go test -v prints it). The
		// bound is 3 s, under the 5 s Retry-After a breaker that never
		// probed would leave clients with, and clear of a loaded machine.
		if resumed > 3*time.Second {
			t.Errorf("first 200 %v after SIGCONT, want within 3 s", resumed)
		}
		wantAllStored(t, env, data, l)
	})
}

// ownPostgres is a PostgreSQL cluster this test alone uses, so that it may
// stop and freeze it (the shared STUDIO_TEST_DATABASE_URL server stays
// untouched).
type ownPostgres struct {
	bin, dir, port, url string
	asPG                []string // runs a command as the postgres user when we are root
}

// startOwnPostgres makes and starts a cluster in a temporary directory on a
// free loopback port, with fsync off. Without PostgreSQL's server binaries
// the test is skipped, unless STUDIO_TEST_DATABASE_URL says the run has
// PostgreSQL (make test-go): then it fails.
func startOwnPostgres(t *testing.T) *ownPostgres {
	t.Helper()
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(bins) == 0 {
		if os.Getenv(storetest.EnvDatabaseURL) != "" {
			t.Fatal("PostgreSQL server binaries not found in /usr/lib/postgresql/*/bin, yet " + storetest.EnvDatabaseURL + " is set")
		}
		t.Skip("no PostgreSQL server binaries in /usr/lib/postgresql/*/bin")
	}
	slices.SortFunc(bins, func(a, b string) int { return pgMajor(a) - pgMajor(b) })
	pg := &ownPostgres{bin: filepath.Dir(bins[len(bins)-1]), dir: t.TempDir()}
	if os.Geteuid() == 0 {
		// PostgreSQL refuses to run as root (scripts/with-postgres does the same).
		if exec.Command("id", "postgres").Run() != nil {
			runCmd(t, "useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "postgres")
		}
		pg.asPG = []string{"runuser", "-u", "postgres", "--"}
		// t.TempDir's parents are 0700 root: let postgres reach its directory.
		for d := pg.dir; d != os.TempDir() && d != "/"; d = filepath.Dir(d) {
			_ = os.Chmod(d, 0o755)
		}
		runCmd(t, "chown", "postgres:", pg.dir)
	}
	pg.run(t, "initdb", "-D", pg.data(), "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C.UTF-8")
	_, pg.port, _ = net.SplitHostPort(freeAddr(t))
	pg.url = fmt.Sprintf("postgres://postgres@127.0.0.1:%s/postgres?sslmode=disable", pg.port)
	pg.ctl(t, "start")
	t.Cleanup(func() {
		// Thaw first: a frozen server would not stop.
		for _, pid := range pg.processesIfRunning() {
			_ = syscall.Kill(pid, syscall.SIGCONT)
		}
		stop := pg.cmd("pg_ctl", "-D", pg.data(), "-m", "immediate", "-w", "stop")
		_ = exec.Command(stop[0], stop[1:]...).Run()
	})
	return pg
}

func pgMajor(initdb string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(initdb))))
	return n
}

func (pg *ownPostgres) data() string { return filepath.Join(pg.dir, "data") }

// cmd is the command line that runs PostgreSQL's program name with args.
func (pg *ownPostgres) cmd(name string, args ...string) []string {
	return append(append(slices.Clone(pg.asPG), filepath.Join(pg.bin, name)), args...)
}

func (pg *ownPostgres) run(t *testing.T, name string, args ...string) {
	t.Helper()
	runCmd(t, pg.cmd(name, args...)...)
}

// ctl runs pg_ctl's action ("start", "stop") and waits until it is done.
func (pg *ownPostgres) ctl(t *testing.T, action string, args ...string) {
	t.Helper()
	all := []string{"-D", pg.data(), "-w", "-t", "30"}
	if action == "start" {
		all = append(all, "-l", filepath.Join(pg.dir, "server.log"),
			"-o", fmt.Sprintf("-c listen_addresses=127.0.0.1 -p %s -k %s -c fsync=off", pg.port, pg.dir))
	}
	pg.run(t, "pg_ctl", append(append(all, args...), action)...)
}

// processes are the postmaster and its children.
func (pg *ownPostgres) processes(t *testing.T) []int {
	t.Helper()
	pids := pg.processesIfRunning()
	if len(pids) < 2 {
		t.Fatalf("PostgreSQL's processes: %v, want the postmaster and its children", pids)
	}
	return pids
}

func (pg *ownPostgres) processesIfRunning() []int {
	pidFile, err := os.ReadFile(filepath.Join(pg.data(), "postmaster.pid"))
	if err != nil {
		return nil
	}
	postmaster, err := strconv.Atoi(strings.SplitN(string(pidFile), "\n", 2)[0])
	if err != nil {
		return nil
	}
	return append([]int{postmaster}, childrenOf(postmaster)...)
}

// childrenOf lists the processes whose parent is pid, as pgrep -P does.
func childrenOf(pid int) []int {
	var children []int
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, stat := range stats {
		b, err := os.ReadFile(stat)
		if err != nil {
			continue // it ended meanwhile
		}
		// pid (comm) state ppid ...: comm may hold spaces, so read after ')'.
		rest := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(rest) > 1 && rest[1] == strconv.Itoa(pid) {
			child, _ := strconv.Atoi(filepath.Base(filepath.Dir(stat)))
			children = append(children, child)
		}
	}
	return children
}

func signalAll(t *testing.T, pids []int, sig syscall.Signal) {
	t.Helper()
	for _, pid := range pids {
		if err := syscall.Kill(pid, sig); err != nil && err != syscall.ESRCH {
			t.Errorf("kill -%v %d: %v", sig, pid, err)
		}
	}
}

func runCmd(t *testing.T, argv ...string) {
	t.Helper()
	if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, out)
	}
}

// answer is one request of the load: when it was sent, how long it took,
// its status and Retry-After, and for a 200 the marker and id stored.
type answer struct {
	sent       time.Time
	took       time.Duration
	status     int // 0 when no answer came
	retryAfter string
	marker, id string
	body       string // of an answer neither 200 nor 503
}

// contactLoad is a few clients posting contact messages, each with its own
// Idempotency-Key, one after another.
type contactLoad struct {
	mu      sync.Mutex
	answers []answer
	quit    chan struct{}
	wg      sync.WaitGroup
}

var loadRuns int // tells the markers of one subtest's load from another's

func startLoad(base string) *contactLoad {
	const clients = 3
	loadRuns++
	run := loadRuns
	l := &contactLoad{quit: make(chan struct{})}
	client := &http.Client{Timeout: 15 * time.Second} // long: a slow answer is measured, not cut
	for c := range clients {
		l.wg.Go(func() {
			for seq := 0; ; seq++ {
				select {
				case <-l.quit:
					return
				default:
				}
				a := post(client, base, fmt.Sprintf("fault-%d-%d-%d", run, c, seq))
				l.mu.Lock()
				l.answers = append(l.answers, a)
				l.mu.Unlock()
				if a.status != http.StatusOK {
					time.Sleep(50 * time.Millisecond) // no busy loop on quick 503s
				}
			}
		})
	}
	return l
}

func post(client *http.Client, base, marker string) answer {
	body := fmt.Sprintf(`{"name":"Fault","email":"fault@example.com","company":null,"phone":null,"message":%q}`, marker)
	req, _ := http.NewRequest("POST", base+"/functions/v1/submit-contact", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", marker)
	a := answer{sent: time.Now(), marker: marker}
	resp, err := client.Do(req)
	a.took = time.Since(a.sent)
	if err != nil {
		return a
	}
	defer resp.Body.Close()
	a.status, a.retryAfter = resp.StatusCode, resp.Header.Get("Retry-After")
	switch resp.StatusCode {
	case http.StatusOK:
		var got struct{ ID string }
		if json.NewDecoder(resp.Body).Decode(&got) == nil {
			a.id = got.ID
		}
	case http.StatusServiceUnavailable:
	default:
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 500))
		a.body = string(b)
	}
	return a
}

func (l *contactLoad) stop() {
	close(l.quit)
	l.wg.Wait()
}

func (l *contactLoad) snapshot() []answer {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.answers)
}

// firstOKAfter waits for the first 200 to a request sent after since and
// returns how long after since it was answered.
func (l *contactLoad) firstOKAfter(t *testing.T, since time.Time, limit time.Duration) time.Duration {
	t.Helper()
	for time.Since(since) < limit {
		for _, a := range l.snapshot() {
			if a.status == http.StatusOK && !a.sent.Before(since) {
				return a.sent.Add(a.took).Sub(since)
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no 200 within %v of the store being back", limit)
	return 0
}

// check asserts what every fault promises of the answers and logs the
// figures: the longest wait, the answers per second from the fault to the
// first 200 after it, and that first 200's delay after recovery.
func (l *contactLoad) check(t *testing.T, faultAt, backAt time.Time, resumed time.Duration) {
	t.Helper()
	answers := l.snapshot()
	var longest time.Duration
	var ok, unavailable, during int
	for _, a := range answers {
		longest = max(longest, a.took)
		switch a.status {
		case 0:
			t.Errorf("%s: no answer after %v", a.marker, a.took)
		case http.StatusOK:
			ok++
		case http.StatusServiceUnavailable:
			unavailable++
			if a.retryAfter == "" {
				t.Errorf("%s: 503 without Retry-After", a.marker)
			}
		default:
			t.Errorf("%s: status %d: %s", a.marker, a.status, a.body)
		}
		if a.took > slowestAnswer {
			t.Errorf("%s: answered %d after %v, want within %v", a.marker, a.status, a.took, slowestAnswer)
		}
	}
	// The fault lasts from faultAt until the first 200 after the store was
	// back; count the answers that came in that window.
	faultEnd := backAt.Add(resumed)
	for _, a := range answers {
		if done := a.sent.Add(a.took); !done.Before(faultAt) && done.Before(faultEnd) && a.status != 0 {
			during++
		}
	}
	window := faultEnd.Sub(faultAt)
	rate := 0.0
	if window > 0 {
		rate = float64(during) / window.Seconds()
	}
	t.Logf("%d requests: %d answered 200, %d answered 503; longest wait %v; "+
		"%d answers over %v of fault (%.1f answers/s); first 200 %v after the store was back",
		len(answers), ok, unavailable, longest.Round(time.Millisecond),
		during, window.Round(time.Millisecond), rate, resumed.Round(time.Millisecond))
	if unavailable == 0 {
		t.Errorf("no request was refused: the fault did not reach the server")
	}
}

// firstUnready polls /readyz until it answers 503 and returns how long
// after now that answer came, or -1 when none did within limit.
func firstUnready(base string, limit time.Duration) time.Duration {
	start := time.Now()
	client := &http.Client{Timeout: limit}
	for time.Since(start) < limit {
		resp, err := client.Get(base + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusServiceUnavailable {
				return time.Since(start)
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return -1
}

// wantAllStored checks that every message answered 200 is in the store,
// under the id its answer gave.
func wantAllStored(t *testing.T, env []string, data string, l *contactLoad) {
	t.Helper()
	idOf := map[string]string{}
	for _, m := range listMessages(t, env, "--data", data) {
		idOf[m.Message] = m.ID
	}
	acked, lost := 0, 0
	for _, a := range l.snapshot() {
		if a.status != http.StatusOK {
			continue
		}
		acked++
		switch id, ok := idOf[a.marker]; {
		case !ok:
			lost++
			t.Errorf("%s was answered 200 (id %s) but is not in the store", a.marker, a.id)
		case id != a.id:
			t.Errorf("%s stored as %s, answered as %s", a.marker, id, a.id)
		}
	}
	t.Logf("%d acknowledged, %d lost", acked, lost)
}
