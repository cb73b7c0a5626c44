package server

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// clientIP is the address of the client that made r, for the rate limit.
// X-Forwarded-For is believed only when the connection comes from a trusted
// proxy: the list is read from the right (the hop nearest to us), skipping
// trusted proxies, and the first other address is the client. Anyone can
// write the header, so without trusted proxies it is ignored.
func clientIP(r *http.Request, trusted []netip.Prefix) netip.Addr {
	remote := parseAddr(r.RemoteAddr)
	if !isTrusted(remote, trusted) {
		return remote
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break // a garbled entry: trust nothing to its left
		}
		a = a.Unmap()
		if !isTrusted(a, trusted) {
			return a
		}
		remote = a
	}
	return remote
}

// ClientIP is the address of the client that made r, believing
// X-Forwarded-For only from the trusted proxies (see clientIP).
func ClientIP(r *http.Request, trusted []netip.Prefix) netip.Addr { return clientIP(r, trusted) }

// overHTTPS reports whether the client made r over HTTPS: on a TLS
// connection, or through a trusted proxy (--trusted-proxies) that ended TLS
// itself and says so in X-Forwarded-Proto (its first value, the scheme the
// client used). From anyone else the header is ignored.
func overHTTPS(r *http.Request, trusted []netip.Prefix) bool {
	if r.TLS != nil {
		return true
	}
	if len(trusted) == 0 { // the common case, without parsing the address of every request
		return false
	}
	if !isTrusted(parseAddr(r.RemoteAddr), trusted) {
		return false
	}
	proto, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Proto"), ",")
	return strings.EqualFold(strings.TrimSpace(proto), "https")
}

func parseAddr(hostport string) netip.Addr {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.IPv4Unspecified()
	}
	return a.Unmap()
}

func isTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// ParsePrefixes parses a comma-separated list of CIDR ranges or single
// addresses (e.g. "10.0.0.0/8, 127.0.0.1").
func ParsePrefixes(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if !strings.Contains(part, "/") {
			a, err := netip.ParseAddr(part)
			if err != nil {
				return nil, err
			}
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
			continue
		}
		p, err := netip.ParsePrefix(part)
		if err != nil {
			return nil, err
		}
		out = append(out, p.Masked())
	}
	return out, nil
}
