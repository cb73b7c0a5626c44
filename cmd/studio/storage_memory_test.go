package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestStorageMemory: 256 MiB through an upload and a download of
// /storage/v1 grow the server's resident memory by less than 64 MiB: the
// bytes stream, they are never held whole.
func TestStorageMemory(t *testing.T) {
	const size, most = 256 << 20, 64 << 20
	dir := t.TempDir()
	if code, _, stderr := runCLI(t, nil, "staff", "add", "files@studio.test", "--data", dir); code != 0 {
		t.Fatal(stderr)
	}
	base, p := startStudio(t, nil, "--addr", "127.0.0.1:0", "--data", dir, "--auth-rate-limit", "off")
	_, printed, _ := runCLI(t, nil, "staff", "sign-in-code", "files@studio.test", "--data", dir)
	token := signInWithCode(t, base, "files@studio.test", strings.TrimSpace(printed))
	call := func(method, path string, body io.Reader, headers ...string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(method, base+"/storage/v1"+path, body)
		req.Header.Set("Authorization", "Bearer "+token)
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	resp := call("POST", "/bucket", strings.NewReader(`{"id":"big","name":"big","public":false}`), "Content-Type", "application/json")
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("create bucket = %d", resp.StatusCode)
	}

	rss := &peakRSS{pid: p.cmd.Process.Pid}
	before, err := rss.now()
	if err != nil {
		t.Fatal(err)
	}
	stop := rss.watch()
	resp = call("POST", "/object/big/blob.bin", io.LimitReader(zeros{}, size), "Content-Type", "application/octet-stream")
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("upload = %d", resp.StatusCode)
	}
	var n int64
	resp = call("GET", "/object/big/blob.bin", nil)
	n, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err != nil || n != size {
		t.Fatalf("download: %d bytes, %v", n, err)
	}
	peak := stop()
	t.Logf("resident memory: %d MiB before, %d MiB at most (+%d MiB) for %d MiB up and down",
		before>>20, peak>>20, (peak-before)>>20, size>>20)
	if peak-before >= most {
		t.Errorf("resident memory grew by %d MiB, want under %d MiB", (peak-before)>>20, most>>20)
	}
}

// signInWithCode trades a printed sign-in code for an access token.
func signInWithCode(t *testing.T, base, email, code string) string {
	t.Helper()
	resp, err := http.Post(base+"/auth/v1/verify", "application/json",
		strings.NewReader(fmt.Sprintf(`{"type":"email","email":%q,"token":%q}`, email, code)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	i := strings.Index(string(body), `"access_token":"`)
	if resp.StatusCode != 200 || i < 0 {
		t.Fatalf("verify = %d %s", resp.StatusCode, body)
	}
	rest := string(body)[i+len(`"access_token":"`):]
	return rest[:strings.IndexByte(rest, '"')]
}

// zeros reads as endless zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// peakRSS samples a process's resident memory (VmRSS).
type peakRSS struct{ pid int }

func (r *peakRSS) now() (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", r.pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc/%d/status", r.pid)
}

// watch samples every 10 ms until the returned stop, which gives the peak.
func (r *peakRSS) watch() (stop func() int64) {
	var mu sync.Mutex
	peak, _ := r.now()
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-done:
				return
			case <-time.After(10 * time.Millisecond):
			}
			v, _ := r.now()
			mu.Lock()
			peak = max(peak, v)
			mu.Unlock()
		}
	})
	return func() int64 {
		close(done)
		wg.Wait()
		v, _ := r.now()
		return max(peak, v)
	}
}
