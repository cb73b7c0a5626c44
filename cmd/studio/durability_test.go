package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"studio/internal/store/storetest"
)

// studioProc is a "studio serve" process of the tests (main_test.go and
// durability_test.go).
type studioProc struct {
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited
	err  error         // its exit status, once done
}

// startStudio runs "studio serve" with args and waits until it listens.
func startStudio(t *testing.T, env []string, args ...string) (base string, p *studioProc) {
	t.Helper()
	return startBinary(t, binary, env, args...)
}

// startBinary is startStudio with another studio binary (upgrade_test.go).
func startBinary(t *testing.T, bin string, env []string, args ...string) (base string, p *studioProc) {
	t.Helper()
	requireDataFlag(t, args)
	cmd := exec.Command(bin, append([]string{"serve"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p = &studioProc{cmd: cmd, done: make(chan struct{})}
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		var entry struct{ Msg, Addr string }
		if json.Unmarshal(lines.Bytes(), &entry) == nil && entry.Msg == "listening" {
			go func() { _, _ = io.Copy(io.Discard, stdout); p.err = cmd.Wait(); close(p.done) }()
			t.Cleanup(func() { p.kill() })
			return "http://" + entry.Addr, p
		}
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	t.Fatal("studio serve did not report its address")
	return "", nil
}

// kill ends the process with SIGKILL (no chance to clean up) and waits.
func (p *studioProc) kill() {
	select {
	case <-p.done:
		return
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
	}
}

// freeAddr returns a loopback address that nothing listens on right now.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

type listedMessage struct {
	ID      string `json:"id"`
	Message string `json:"message"`
}

// listMessages runs "studio messages list --format json" on the store.
func listMessages(t *testing.T, env []string, storeArgs ...string) []listedMessage {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"messages", "list", "--format", "json"}, storeArgs...)...)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("messages list: %v: %s", err, stderr.String())
	}
	var msgs []listedMessage
	if err := json.Unmarshal(out, &msgs); err != nil {
		t.Fatalf("messages list output: %v", err)
	}
	return msgs
}

// TestDurabilityUnderSIGKILL: a load generator sends contact messages while
// the server is killed with SIGKILL and restarted on the same address, over
// and over. Afterwards every message that was answered 200 is in the store
// exactly once, under the id the answer gave; nothing is there twice.
func TestDurabilityUnderSIGKILL(t *testing.T) {
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			// --data on PostgreSQL too: the secret key's file is made there.
			var env []string
			storeArgs := []string{"--data", t.TempDir()}
			if engine == "postgres" {
				env = []string{"DATABASE_URL=" + storetest.PostgresURL(t)}
			}
			testDurability(t, env, storeArgs)
		})
	}
}

func testDurability(t *testing.T, env, storeArgs []string) {
	addr := freeAddr(t)
	serveArgs := append([]string{"--addr", addr, "--rate-limit", "off"}, storeArgs...)
	base, proc := startStudio(t, env, serveArgs...)

	const (
		workers  = 4
		kills    = 4
		interval = 600 * time.Millisecond
	)
	type ack struct{ marker, id string }
	var (
		mu       sync.Mutex
		acked    []ack
		sent     int
		failures int
	)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	client := &http.Client{Timeout: 5 * time.Second}
	for w := range workers {
		wg.Go(func() {
			for seq := 0; ; seq++ {
				select {
				case <-stop:
					return
				default:
				}
				marker := fmt.Sprintf("durability-%d-%d", w, seq)
				body := fmt.Sprintf(`{"name":"Load %d","email":"load@example.com","company":null,"phone":null,"message":%q}`, w, marker)
				mu.Lock()
				sent++
				mu.Unlock()
				resp, err := client.Post(base+"/functions/v1/submit-contact", "application/json", strings.NewReader(body))
				if err != nil {
					mu.Lock()
					failures++
					mu.Unlock()
					time.Sleep(20 * time.Millisecond) // the server is restarting
					continue
				}
				var got struct{ ID string }
				err = json.NewDecoder(resp.Body).Decode(&got)
				resp.Body.Close()
				mu.Lock()
				if resp.StatusCode == http.StatusOK && err == nil && got.ID != "" {
					acked = append(acked, ack{marker, got.ID})
				} else {
					failures++
				}
				mu.Unlock()
			}
		})
	}

	for range kills {
		time.Sleep(interval)
		proc.kill()
		_, proc = startStudio(t, env, serveArgs...)
	}
	time.Sleep(interval)
	close(stop)
	wg.Wait()
	proc.kill()

	stored := listMessages(t, env, storeArgs...)
	count := map[string]int{}
	idOf := map[string]string{}
	for _, m := range stored {
		count[m.Message]++
		idOf[m.Message] = m.ID
	}
	for marker, n := range count {
		if n > 1 {
			t.Errorf("%s stored %d times", marker, n)
		}
	}
	lost := 0
	for _, a := range acked {
		switch {
		case count[a.marker] == 0:
			lost++
			t.Errorf("%s was answered 200 (id %s) but is not in the store", a.marker, a.id)
		case idOf[a.marker] != a.id:
			t.Errorf("%s stored as %s, answered as %s", a.marker, idOf[a.marker], a.id)
		}
	}
	t.Logf("%d kills: %d sent, %d answered 200, %d failed while the server was down, %d stored, %d lost",
		kills, sent, len(acked), failures, len(stored), lost)
	if len(acked) < 50 {
		t.Errorf("only %d messages were accepted: the load did not run", len(acked))
	}
	if failures == 0 {
		t.Errorf("no request failed: the server was never down while the load ran")
	}
}

// TestSIGTERMFinishesInFlightRequests: a request whose body is still
// arriving when SIGTERM comes is served to the end and its message stored;
// the process then exits 0.
func TestSIGTERMFinishesInFlightRequests(t *testing.T) {
	data := t.TempDir()
	base, proc := startStudio(t, nil, "--addr", "127.0.0.1:0", "--data", data)
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"name":"Ada","email":"ada@example.com","company":null,"phone":null,"message":"in flight at SIGTERM"}`
	half := len(body) / 2
	fmt.Fprintf(conn, "POST /functions/v1/submit-contact HTTP/1.1\r\nHost: studio\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body[:half])
	time.Sleep(200 * time.Millisecond) // the server is reading the body
	if err := proc.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	select {
	case <-proc.done:
		t.Fatalf("exited (%v) with a request in flight", proc.err)
	default:
	}
	if _, err := io.WriteString(conn, body[half:]); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status = %d, want 200", resp.StatusCode)
	}
	proc.wantCleanExit(t)
	msgs := listMessages(t, nil, "--data", data)
	if len(msgs) != 1 || msgs[0].Message != "in flight at SIGTERM" {
		t.Errorf("stored %+v, want the in-flight message", msgs)
	}
}

// requireDataFlag fails a test that starts studio serve without --data: it
// would write its store and secret key into ./data, in the work tree.
func requireDataFlag(t *testing.T, args []string) {
	t.Helper()
	if !slices.Contains(args, "--data") {
		t.Fatalf("studio serve %v: give it a temporary --data (t.TempDir())", args)
	}
}
