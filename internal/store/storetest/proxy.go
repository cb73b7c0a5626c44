package storetest

import (
	"io"
	"net"
	"net/url"
	"sync"
	"testing"
)

// CuttableProxy forwards TCP connections to PostgreSQL until Cut, which
// drops them all and refuses new ones until Restore: an outage of the
// store, for the servers that reach it through URL.
type CuttableProxy struct {
	URL string // the store's address through the proxy

	mu    sync.Mutex
	down  bool
	conns map[net.Conn]struct{}
}

// NewCuttableProxy forwards to the PostgreSQL of target (an address
// like PostgresURL's) until the end of the test.
func NewCuttableProxy(t testing.TB, target string) *CuttableProxy {
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
	p := &CuttableProxy{conns: map[net.Conn]struct{}{}}
	backend := u.Host
	u.Host = ln.Addr().String()
	p.URL = u.String()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.forward(c, backend)
		}
	}()
	t.Cleanup(p.Cut)
	return p
}

func (p *CuttableProxy) forward(c net.Conn, backend string) {
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

// Cut drops every connection and refuses new ones.
func (p *CuttableProxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = true
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
}

// Restore lets connections through again.
func (p *CuttableProxy) Restore() {
	p.mu.Lock()
	p.down = false
	p.mu.Unlock()
}
