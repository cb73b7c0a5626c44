package server

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// countingConn counts the writes that reach the connection below the
// coalescing layer (each is one system call on a real socket).
type countingConn struct {
	net.Conn
	writes *atomic.Int32
}

func (c countingConn) Write(p []byte) (int, error) {
	c.writes.Add(1)
	return c.Conn.Write(p)
}

type countingListener struct {
	net.Listener
	writes atomic.Int32
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return countingConn{c, &l.writes}, nil
}

// serveCoalesced serves h like Serve does and returns the counting listener
// below the coalescing one, and the address to dial.
func serveCoalesced(t *testing.T, h http.Handler) (*countingListener, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	counting := &countingListener{Listener: ln}
	srv := httpServer(h, slog.New(slog.DiscardHandler))
	go func() { _ = srv.Serve(coalescingListener{counting}) }()
	t.Cleanup(func() { _ = srv.Close() })
	return counting, ln.Addr().String()
}

// pattern is n bytes of a repeating pattern; sizedBody answers /N with
// pattern(N), written in pieces.
func pattern(n int) []byte { return bytes.Repeat([]byte("0123456789abcdef"), n/16+1)[:n] }

var sizedBody = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	n, _ := strconv.Atoi(r.URL.Path[1:])
	b := pattern(n)
	w.Header().Set("Content-Length", strconv.Itoa(n))
	w.Header().Set("Content-Type", "text/plain")
	for len(b) > 0 {
		k := min(len(b), 3000)
		_, _ = w.Write(b[:k])
		b = b[k:]
	}
})

func readPattern(t *testing.T, br *bufio.Reader, want int) *http.Response {
	t.Helper()
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, pattern(want)) {
		t.Fatalf("body of %d bytes, want the %d bytes written", len(got), want)
	}
	return resp
}

func dial(t *testing.T, addr string) (net.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, bufio.NewReader(c)
}

func TestCoalescedResponseLeavesInOneWrite(t *testing.T) {
	counting, addr := serveCoalesced(t, sizedBody)
	c, br := dial(t, addr)
	// Without coalescing, net/http writes a 10 KB response in two writes; the
	// handler writes it in pieces of 3000 bytes.
	for i, target := range []string{"/10000", "/20000", "/10"} {
		size, _ := strconv.Atoi(target[1:])
		if _, err := io.WriteString(c, "GET "+target+" HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		readPattern(t, br, size)
		if got, want := counting.writes.Load(), int32(i+1); got != want {
			t.Fatalf("after response %d (%s): %d writes, want %d", i+1, target, got, want)
		}
	}
}

func TestCoalescedPipelinedAndLargeResponsesArriveWhole(t *testing.T) {
	_, addr := serveCoalesced(t, sizedBody)
	c, br := dial(t, addr)
	sizes := []int{5_000, 300_000, 1, coalesceLimit, coalesceLimit + 1}
	var reqs bytes.Buffer
	for _, size := range sizes {
		reqs.WriteString("GET /" + strconv.Itoa(size) + " HTTP/1.1\r\nHost: x\r\n\r\n")
	}
	if _, err := c.Write(reqs.Bytes()); err != nil { // all at once: pipelined
		t.Fatal(err)
	}
	for _, size := range sizes {
		readPattern(t, br, size)
	}
}

func TestCoalescedResponseBeforeConnectionClose(t *testing.T) {
	_, addr := serveCoalesced(t, sizedBody)
	c, br := dial(t, addr)
	if _, err := io.WriteString(c, "GET /7000 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	resp := readPattern(t, br, 7000)
	if !resp.Close {
		t.Error("the response does not announce the close")
	}
	if n, err := br.Read(make([]byte, 1)); n != 0 || err != io.EOF {
		t.Errorf("after the response: %d bytes, %v; want EOF", n, err)
	}
}

func TestCoalescedRequestBodiesAreRead(t *testing.T) {
	echo := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		_, _ = w.Write(b)
	})
	_, addr := serveCoalesced(t, echo)
	resp, err := http.Post("http://"+addr+"/", "text/plain", bytes.NewReader(pattern(50_000)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	if !bytes.Equal(got, pattern(50_000)) {
		t.Fatalf("echoed %d bytes, want 50000 intact", len(got))
	}
}

func TestCoalescedInterimContinueIsSentAtOnce(t *testing.T) {
	echo := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		_, _ = w.Write(b)
	})
	_, addr := serveCoalesced(t, echo)
	c, br := dial(t, addr)
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(c, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	// The client sends the body only after "100 Continue" arrives.
	line, err := br.ReadString('\n')
	if err != nil || line != "HTTP/1.1 100 Continue\r\n" {
		t.Fatalf("first line %q, %v; want HTTP/1.1 100 Continue", line, err)
	}
	if blank, _ := br.ReadString('\n'); blank != "\r\n" {
		t.Fatalf("after the interim status: %q", blank)
	}
	if _, err := c.Write(pattern(5000)); err != nil {
		t.Fatal(err)
	}
	readPattern(t, br, 5000)
}

// A client that never reads: on a net.Pipe a write blocks until the other
// end reads.
func TestCoalescedCloseDoesNotWaitForAClientThatDoesNotRead(t *testing.T) {
	defer func(d time.Duration) { closeFlushTimeout = d }(closeFlushTimeout)
	closeFlushTimeout = 50 * time.Millisecond

	t.Run("what is held gets closeFlushTimeout", func(t *testing.T) {
		server, client := net.Pipe()
		defer client.Close()
		c := &coalescingConn{Conn: server}
		if _, err := c.Write(pattern(100)); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if err := c.Close(); err == nil {
			t.Error("Close reports no error although the held bytes were not sent")
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("Close took %v", d)
		}
	})

	t.Run("a write blocked in another goroutine ends with the close", func(t *testing.T) {
		server, client := net.Pipe()
		defer client.Close()
		c := &coalescingConn{Conn: server}
		if _, err := c.Write(pattern(100)); err != nil {
			t.Fatal(err)
		}
		readDone := make(chan error, 1)
		go func() { // the server's next read sends the response, and blocks there
			_, err := c.Read(make([]byte, 1))
			readDone <- err
		}()
		for c.mu.TryLock() { // wait until that goroutine holds the connection
			c.mu.Unlock()
			time.Sleep(time.Millisecond)
		}
		closed := make(chan struct{})
		go func() { _ = c.Close(); close(closed) }()
		select {
		case <-closed:
		case <-time.After(2 * time.Second):
			t.Fatal("Close waits for the blocked write")
		}
		select {
		case err := <-readDone:
			if err == nil {
				t.Error("the blocked write reported success")
			}
		case <-time.After(2 * time.Second):
			t.Fatal("the blocked write did not end")
		}
	})
}

// TestCoalescedUpgradeSendsEveryFrameAtOnce: a websocket's frames leave as
// they are written, while the server waits to read, and the client's
// frames are read.
func TestCoalescedUpgradeSendsEveryFrameAtOnce(t *testing.T) {
	_, addr := serveCoalesced(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx := r.Context()
		for i := range 3 {
			// Each frame must arrive while the server is not reading.
			if err := c.Write(ctx, websocket.MessageText, []byte("tick "+strconv.Itoa(i))); err != nil {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		if _, msg, err := c.Read(ctx); err == nil {
			_ = c.Write(ctx, websocket.MessageText, append([]byte("echo "), msg...))
		}
	}))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws://"+addr+"/", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	for i := range 3 {
		start := time.Now()
		_, msg, err := c.Read(ctx)
		if err != nil || string(msg) != "tick "+strconv.Itoa(i) {
			t.Fatalf("frame %d = %q, %v", i, msg, err)
		}
		if i > 0 && time.Since(start) > 40*time.Millisecond+50*time.Millisecond {
			t.Errorf("frame %d came %v late", i, time.Since(start))
		}
	}
	if err := c.Write(ctx, websocket.MessageText, []byte("hi")); err != nil {
		t.Fatal(err)
	}
	if _, msg, err := c.Read(ctx); err != nil || string(msg) != "echo hi" {
		t.Fatalf("echo = %q, %v", msg, err)
	}
}
