package store_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"studio/internal/breaker"
	"studio/internal/fault"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

// freezer is a TCP proxy to a PostgreSQL server that can freeze it as
// SIGSTOP would: connections stay open, new ones are accepted, and nothing
// is answered until it thaws.
type freezer struct {
	ln     net.Listener
	target string

	mu   sync.Mutex
	gate chan struct{} // closed while traffic flows
}

func newFreezer(t *testing.T, target string) *freezer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &freezer{ln: ln, target: target, gate: make(chan struct{})}
	close(f.gate)
	t.Cleanup(func() { ln.Close(); f.thaw() })
	go f.serve()
	return f
}

func (f *freezer) serve() {
	for {
		c, err := f.ln.Accept()
		if err != nil {
			return
		}
		go func() {
			<-f.open()
			s, err := net.Dial("tcp", f.target)
			if err != nil {
				c.Close()
				return
			}
			go f.pipe(s, c)
			f.pipe(c, s)
		}()
	}
}

// pipe copies from src to dst, holding each chunk while frozen.
func (f *freezer) pipe(dst, src net.Conn) {
	defer dst.Close()
	defer src.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			<-f.open()
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func (f *freezer) open() chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.gate
}

func (f *freezer) freeze() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.gate = make(chan struct{})
}

func (f *freezer) thaw() {
	f.mu.Lock()
	defer f.mu.Unlock()
	select {
	case <-f.gate:
	default:
		close(f.gate)
	}
}

// TestFrozenPostgres: with PostgreSQL frozen, writes fail as unavailable
// within the call deadline (2 s) instead of the request's 15 s; after three
// in a row the breaker opens and writes fail at once, telling a Retry-After
// of 5 s; once PostgreSQL answers again, writes succeed within a probe's
// wait (0.5 s) and a write. The outage is logged once when it starts and
// once when it ends.
//
// Its bounds tell those apart, with room for a loaded machine (make test's
// browser lane beside it): 4 s against the request's 15 s, 1 s for "at
// once" against the 2 s deadline, 3 s against the 5 s Retry-After a
// breaker that never probed would have clients wait.
func TestFrozenPostgres(t *testing.T) {
	u, err := url.Parse(storetest.PostgresURL(t))
	if err != nil {
		t.Fatal(err)
	}
	f := newFreezer(t, u.Host)
	u.Host = f.ln.Addr().String()
	var logged lockedBuffer
	db := storetest.MustOpen(t, store.Config{DatabaseURL: u.String(), Logger: slog.New(slog.NewTextHandler(&logged, nil))})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := db.CreateContactMessage(ctx, message("before", t0), nil); err != nil {
		t.Fatal(err)
	}

	f.freeze()
	var wg sync.WaitGroup
	for _, id := range []string{"frozen-1", "frozen-2", "frozen-3"} {
		wg.Go(func() {
			start := time.Now()
			_, err := db.CreateContactMessage(ctx, message(id, t0), nil)
			took := time.Since(start)
			if !errors.Is(err, fault.Unavailable) || took > 4*time.Second {
				t.Errorf("write %s while frozen: %v after %v, want unavailable within the 2 s deadline", id, err, took)
			}
			t.Logf("write %s while frozen: unavailable after %v", id, took)
		})
	}
	wg.Wait()
	if db.Up() {
		t.Fatal("the store is up after three writes past their deadline")
	}
	start := time.Now()
	_, err = db.CreateContactMessage(ctx, message("refused", t0), nil)
	took := time.Since(start)
	if !errors.Is(err, breaker.ErrOpen) || !errors.Is(err, fault.Unavailable) || took > time.Second {
		t.Errorf("write with the breaker open: %v after %v, want ErrOpen (unavailable) at once", err, took)
	}
	t.Logf("write with the breaker open: refused after %v", took)
	if wait, ok := fault.RetryAfter(err); !ok || wait != 5*time.Second {
		t.Errorf("Retry-After with the breaker open: %v (%v), want 5s", wait, ok)
	}

	f.thaw()
	thawed := time.Now()
	for {
		_, err := db.CreateContactMessage(ctx, message("after", t0), nil)
		if err == nil {
			break
		}
		if time.Since(thawed) > 5*time.Second {
			t.Fatalf("still failing 5 s after the thaw: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if took := time.Since(thawed); took > 3*time.Second {
		t.Errorf("service resumed %v after the thaw, want within a probe's wait and a write", took)
	}
	t.Logf("service resumed %v after the thaw", time.Since(thawed))
	if !db.Up() || time.Since(db.LastCommit()) > 3*time.Second {
		t.Errorf("after the thaw: up %v, last commit %v", db.Up(), db.LastCommit())
	}
	log := logged.String()
	if strings.Count(log, "store unavailable") != 1 || strings.Count(log, "store available again") != 1 ||
		!strings.Contains(log, "down=") {
		t.Errorf("log of the outage:\n%s\nwant one line when it starts and one with its length when it ends", log)
	}
}

// lockedBuffer is a bytes.Buffer safe for concurrent writes.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
