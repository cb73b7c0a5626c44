package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSQLiteDiskFull: SQLite on a small tmpfs filled to the last byte. A
// contact message is answered 503 with Retry-After and /readyz reads 503
// (its probe commit fails, where a ping would pass); once space is freed,
// with no restart, /readyz reads 200 and a message is answered 200 within
// 2 s, the messages refused are stored once when sent again with their
// Idempotency-Key, and every message answered 200 is in the store.
func TestSQLiteDiskFull(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a size-limited tmpfs")
	}
	data := filepath.Join(t.TempDir(), "data")
	if err := os.Mkdir(data, 0o700); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", data).CombinedOutput(); err != nil {
		t.Fatalf("mount a 2 MiB tmpfs on %s: %v: %s", data, err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", data).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", data, err, out)
		}
	})
	// Cleanups run last first: the server is killed before the unmount.
	base, proc := startStudio(t, nil, "--addr", "127.0.0.1:0", "--rate-limit", "off", "--data", data)
	client := &http.Client{Timeout: 5 * time.Second}
	acked := map[string]string{} // message → id answered 200

	// send posts one contact message with key as its Idempotency-Key.
	send := func(message, key string) *http.Response {
		t.Helper()
		body := fmt.Sprintf(`{"name":"Disk","email":"disk@example.com","company":null,"phone":null,"message":%q}`, message)
		req, err := http.NewRequest(http.MethodPost, base+"/functions/v1/submit-contact", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", key)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var got struct{ ID string }
		if err := json.NewDecoder(resp.Body).Decode(&got); resp.StatusCode == http.StatusOK {
			if err != nil || got.ID == "" {
				t.Fatalf("%s answered 200 without an id: %v", message, err)
			}
			acked[message] = got.ID
		}
		return resp
	}
	readyz := func() int {
		resp, body := get(t, base+"/readyz")
		// Anyone may ask /readyz: it names the part, never the store's own
		// error (its files here).
		if resp.StatusCode != http.StatusOK && (!strings.Contains(body, `"store":"cannot commit to the store"`) || strings.Contains(body, data)) {
			t.Errorf("/readyz on a full disk = %s, want the store named without its files", body)
		}
		return resp.StatusCode
	}

	for i := range 3 {
		if resp := send(fmt.Sprintf("before %d", i), fmt.Sprintf("before-%d", i)); resp.StatusCode != http.StatusOK {
			t.Fatalf("before the disk filled: %s", resp.Status)
		}
	}
	filler := filepath.Join(data, "filler")
	fillDisk(t, filler)

	// Until one is refused: SQLite may still find room in pages it has.
	var refused []string
	for i := 0; len(refused) == 0; i++ {
		if i == 200 {
			t.Fatalf("200 messages accepted on a full disk")
		}
		message := fmt.Sprintf("full %d %s", i, strings.Repeat("x", 1500))
		switch resp := send(message, fmt.Sprintf("full-%d", i)); resp.StatusCode {
		case http.StatusOK:
		case http.StatusServiceUnavailable:
			if resp.Header.Get("Retry-After") == "" {
				t.Errorf("503 without Retry-After")
			}
			refused = append(refused, message)
		default:
			t.Fatalf("on a full disk: %s, want 503", resp.Status)
		}
	}
	waitFor(t, "/readyz 503 on a full disk", 2*time.Second, func() bool { return readyz() == http.StatusServiceUnavailable })

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	freed := time.Now()
	waitFor(t, "/readyz 200 once space is freed", 2*time.Second, func() bool { return readyz() == http.StatusOK })
	if resp := send("after", "after"); resp.StatusCode != http.StatusOK {
		t.Errorf("once space is freed and /readyz 200: %s, want 200", resp.Status)
	}
	t.Logf("ready again %v after space was freed", time.Since(freed).Round(time.Millisecond))
	for i, message := range refused {
		if resp := send(message, fmt.Sprintf("full-%d", i)); resp.StatusCode != http.StatusOK {
			t.Errorf("%q sent again with its Idempotency-Key: %s, want 200", message, resp.Status)
		}
	}

	proc.kill()
	count := map[string]int{}
	idOf := map[string]string{}
	for _, m := range listMessages(t, nil, "--data", data) {
		count[m.Message]++
		idOf[m.Message] = m.ID
	}
	for message, id := range acked {
		if count[message] != 1 || idOf[message] != id {
			t.Errorf("%.20q answered 200 as %s: stored %d times, as %s", message, id, count[message], idOf[message])
		}
	}
}

// fillDisk writes zeros to path until its file system is full.
func fillDisk(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zeros := make([]byte, 4096)
	for {
		if _, err := f.Write(zeros); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			return
		}
	}
}

// waitFor polls ok until it holds, failing the test after within.
func waitFor(t *testing.T, what string, within time.Duration, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(within); !ok(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no %s within %v", what, within)
		}
	}
}
