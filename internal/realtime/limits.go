package realtime

import (
	"net"
	"net/http"
	"net/netip"
	"time"
)

// peerIP is the address of the TCP peer of r, for a service given no
// Config.ClientIP.
func peerIP(r *http.Request) netip.Addr {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.IPv4Unspecified()
	}
	return a
}

// admit counts a websocket of client, unless client has
// Config.MaxConnsPerClient open already; release uncounts an admitted one.
func (s *Service) admit(client string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.perClient[client] >= s.cfg.MaxConnsPerClient {
		return false
	}
	s.perClient[client]++
	return true
}

func (s *Service) release(client string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.perClient[client]--; s.perClient[client] <= 0 {
		delete(s.perClient, client) // the map holds open clients only
	}
}

// limited logs that limit was reached, and counts it.
func (s *Service) limited(limit, msg string, args ...any) {
	s.cfg.Logger.Warn(msg, append([]any{"limit", limit}, args...)...)
	if s.cfg.Limited != nil {
		s.cfg.Limited(limit)
	}
}

// positiveOr is v, or def when v is not positive.
func positiveOr[T int | time.Duration](v, def T) T {
	if v > 0 {
		return v
	}
	return def
}
