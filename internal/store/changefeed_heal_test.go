package store_test

import (
	"context"
	"io"
	"net"
	"net/url"
	"sync"
	"testing"
	"time"

	"studio/internal/store"
	"studio/internal/store/storetest"
)

// TestOwnChangesWithoutListening: a server's own commits reach its own bus
// on PostgreSQL even when it does not listen for NOTIFY.
func TestOwnChangesWithoutListening(t *testing.T) {
	db := storetest.MustOpen(t, store.Config{DatabaseURL: storetest.PostgresURL(t)}) // FollowChanges not running
	sub := db.Changes().Subscribe(10)
	defer sub.Close()
	if _, err := db.CreateContactMessage(context.Background(), message("m1", t0), nil); err != nil {
		t.Fatal(err)
	}
	if got := received(t, sub, 1); got[0] != "INSERT contact_messages m1" {
		t.Errorf("got %v", got)
	}
}

// TestChangeFeedHeals: after PostgreSQL has refused connections for 4 s,
// the feed listens again within 2 s of it answering, says so, and hears
// the other servers' changes again.
func TestChangeFeedHeals(t *testing.T) {
	direct := storetest.PostgresURL(t)
	proxy := newCuttableProxy(t, direct)
	db := storetest.MustOpen(t, store.Config{DatabaseURL: proxy.url})
	other := storetest.MustOpen(t, store.Config{DatabaseURL: direct})
	follow(t, db)

	changed := db.FollowingChanged()
	proxy.cut()
	waitFor(t, changed, "the feed to say it stopped listening")
	if db.Following() {
		t.Fatal("Following after the connection was cut")
	}
	time.Sleep(4 * time.Second) // several failed attempts: a doubling backoff would now wait 4 s
	changed = db.FollowingChanged()
	proxy.restore()
	back := time.Now()
	waitFor(t, changed, "the feed to say it listens again")
	if took := time.Since(back); !db.Following() || took > 2*time.Second {
		t.Fatalf("listening again %v after PostgreSQL answered (Following %v), want within 2 s", took, db.Following())
	}

	sub := db.Changes().Subscribe(10)
	defer sub.Close()
	if _, err := other.CreateContactMessage(context.Background(), message("m1", t0), nil); err != nil {
		t.Fatal(err)
	}
	if got := received(t, sub, 1); got[0] != "INSERT contact_messages m1" {
		t.Errorf("got %v", got)
	}
}

// waitFor waits up to 10 s for c to close.
func waitFor(t *testing.T, c <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-c:
	case <-time.After(10 * time.Second):
		t.Fatalf("waited 10 s for %s", what)
	}
}

// cuttableProxy forwards TCP connections to PostgreSQL until cut, which
// drops them all and refuses new ones until restore.
type cuttableProxy struct {
	url string

	mu    sync.Mutex
	down  bool
	conns map[net.Conn]struct{}
}

func newCuttableProxy(t *testing.T, target string) *cuttableProxy {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	p := &cuttableProxy{conns: map[net.Conn]struct{}{}}
	backend := u.Host
	u.Host = ln.Addr().String()
	p.url = u.String()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.forward(c, backend)
		}
	}()
	t.Cleanup(p.cut)
	return p
}

func (p *cuttableProxy) forward(c net.Conn, backend string) {
	b, err := net.Dial("tcp", backend)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	if p.down {
		p.mu.Unlock()
		c.Close()
		b.Close()
		return
	}
	p.conns[c], p.conns[b] = struct{}{}, struct{}{}
	p.mu.Unlock()
	go func() { _, _ = io.Copy(b, c); b.Close(); c.Close() }()
	_, _ = io.Copy(c, b)
	b.Close()
	c.Close()
}

func (p *cuttableProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = true
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
}

func (p *cuttableProxy) restore() {
	p.mu.Lock()
	p.down = false
	p.mu.Unlock()
}
