package server_test

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"studio/internal/files"
	"studio/internal/realtime"
	"studio/internal/server"
	"studio/internal/storage"
	"studio/internal/storage/disk"
	"studio/internal/store/storetest"
)

// countingListener counts the writes that reach its connections (each is
// one system call on a real socket).
type countingListener struct {
	net.Listener
	writes atomic.Int32
	files  atomic.Int32
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return countingConn{c, &l.writes, &l.files}, nil
}

type countingConn struct {
	net.Conn
	writes *atomic.Int32
	files  *atomic.Int32 // bodies handed over as files (sent by sendfile(2))
}

// ReadFrom counts what net/http hands to the connection, and the files
// among them, and sends it as the TCP connection would.
func (c countingConn) ReadFrom(r io.Reader) (int64, error) {
	src := r
	if lr, ok := r.(*io.LimitedReader); ok {
		src = lr.R
	}
	if _, ok := src.(*os.File); ok {
		c.files.Add(1)
	}
	c.writes.Add(1)
	return c.Conn.(*net.TCPConn).ReadFrom(r)
}

func (c countingConn) Write(p []byte) (int, error) {
	c.writes.Add(1)
	return c.Conn.Write(p)
}

// CloseWrite lets net/http end a "Connection: close" exchange gracefully,
// as it does on the TCP connection below.
func (c countingConn) CloseWrite() error { return c.Conn.(*net.TCPConn).CloseWrite() }

// serveCounting runs Serve with the studio's handler for d on a counting
// listener, and returns that listener and the address to dial.
func serveCounting(t *testing.T, d server.Deps) (*countingListener, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	counting := &countingListener{Listener: ln}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- server.Serve(ctx, counting, server.New(d), discardLogger(), server.Options{}) }()
	t.Cleanup(func() { cancel(); <-served })
	return counting, ln.Addr().String()
}

// pattern is n bytes of a repeating pattern; sizedSite answers /N with
// pattern(N), written at once as package site does.
func pattern(n int) []byte { return bytes.Repeat([]byte("0123456789abcdef"), n/16+1)[:n] }

var sizedSite = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	n, _ := strconv.Atoi(r.URL.Path[1:])
	w.Header().Set("Content-Length", strconv.Itoa(n))
	w.Header().Set("Content-Type", "text/plain")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(pattern(n))
})

func dial(t *testing.T, addr string) (net.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	t.Cleanup(func() { c.Close() })
	return c, bufio.NewReader(c)
}

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

// TestSiteResponseLeavesInOneWrite: net/http alone writes a response of
// more than 4 KiB in two writes.
func TestSiteResponseLeavesInOneWrite(t *testing.T) {
	counting, addr := serveCounting(t, server.Deps{Site: sizedSite})
	c, br := dial(t, addr)
	for i, size := range []int{10_000, 20_000, 10, 5_000} {
		if _, err := io.WriteString(c, "GET /"+strconv.Itoa(size)+" HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		readPattern(t, br, size)
		if got, want := counting.writes.Load(), int32(i+1); got != want {
			t.Fatalf("after response %d (%d bytes): %d writes, want %d", i+1, size, got, want)
		}
	}
}

func TestSiteResponsesArriveWhole(t *testing.T) {
	t.Run("pipelined, small and large", func(t *testing.T) {
		_, addr := serveCounting(t, server.Deps{Site: sizedSite})
		c, br := dial(t, addr)
		sizes := []int{5_000, 300_000, 1, 32 << 10, 32<<10 + 1}
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
	})
	t.Run("before Connection: close", func(t *testing.T) {
		_, addr := serveCounting(t, server.Deps{Site: sizedSite})
		c, br := dial(t, addr)
		if _, err := io.WriteString(c, "GET /7000 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		if resp := readPattern(t, br, 7000); !resp.Close {
			t.Error("the response does not announce the close")
		}
		if n, err := br.Read(make([]byte, 1)); n != 0 || err != io.EOF {
			t.Errorf("after the response: %d bytes, %v; want EOF", n, err)
		}
	})
}

// TestRealtimeFramesLeaveAsWritten: only the site's responses are gathered;
// a websocket's frames leave while its handler waits to read.
func TestRealtimeFramesLeaveAsWritten(t *testing.T) {
	ticks := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx := r.Context()
		for i := range 3 {
			if err := c.Write(ctx, websocket.MessageText, []byte("tick "+strconv.Itoa(i))); err != nil {
				return
			}
		}
		if _, msg, err := c.Read(ctx); err == nil {
			_ = c.Write(ctx, websocket.MessageText, append([]byte("echo "), msg...))
		}
	})
	_, addr := serveCounting(t, server.Deps{Site: sizedSite, Realtime: ticks})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws://"+addr+realtime.Prefix+"/websocket", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	// The handler now waits for our message: the ticks must have left.
	for i := range 3 {
		if _, msg, err := c.Read(ctx); err != nil || string(msg) != "tick "+strconv.Itoa(i) {
			t.Fatalf("frame %d = %q, %v", i, msg, err)
		}
	}
	if err := c.Write(ctx, websocket.MessageText, []byte("hi")); err != nil {
		t.Fatal(err)
	}
	if _, msg, err := c.Read(ctx); err != nil || string(msg) != "echo hi" {
		t.Fatalf("echo = %q, %v", msg, err)
	}
}

// TestPublicFilesLeaveAsFiles: a big public file's body reaches the
// connection as the file itself (which a TCP connection sends by
// sendfile(2)), in parts; a small one, from memory, leaves with its header
// in one write. Both arrive whole, pipelined, a range too.
func TestPublicFilesLeaveAsFiles(t *testing.T) {
	ctx := context.Background()
	db := storetest.Engines()[0].New(t)
	blobs, err := disk.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	svc := storage.New(db, blobs, nil, storage.Config{BlobCacheBytes: 1 << 20})
	now := time.Now()
	if err := db.CreateBucket(ctx, files.Bucket{ID: "downloads", Public: true, CreatedAt: now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	big, small := 1<<20+5, 5_000
	for _, n := range []int{big, small} {
		if _, err := svc.PutFile(ctx, "downloads", strconv.Itoa(n), "text/plain", bytes.NewReader(pattern(n)), false); err != nil {
			t.Fatal(err)
		}
	}
	counting, addr := serveCounting(t, server.Deps{Storage: svc})
	c, br := dial(t, addr)
	get := func(n int, headers string) {
		t.Helper()
		if _, err := io.WriteString(c, "GET /storage/v1/object/public/downloads/"+strconv.Itoa(n)+" HTTP/1.1\r\nHost: x\r\n"+headers+"\r\n"); err != nil {
			t.Fatal(err)
		}
	}
	get(small, "") // read into memory
	readPattern(t, br, small)

	writes, sent := counting.writes.Load(), counting.files.Load()
	get(big, "")
	get(small, "")
	readPattern(t, br, big)
	if got := counting.files.Load() - sent; got < 2 {
		t.Errorf("the big file reached the connection as a file %d times, want once per part", got)
	}
	writes, sent = counting.writes.Load(), counting.files.Load()
	readPattern(t, br, small)
	if got := counting.writes.Load() - writes; got != 0 {
		t.Errorf("the small file took %d more writes after the big one's", got)
	}

	writes, sent = counting.writes.Load(), counting.files.Load()
	get(small, "")
	readPattern(t, br, small)
	if w, f := counting.writes.Load()-writes, counting.files.Load()-sent; w != 1 || f != 0 {
		t.Errorf("the small file took %d writes and %d files, want one write", w, f)
	}

	get(big, "Range: bytes=1048000-\r\n")
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusPartialContent || !bytes.Equal(got, pattern(big)[1048000:]) {
		t.Errorf("range: %d, %d bytes (%v)", resp.StatusCode, len(got), err)
	}
}
