package federated

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
)

// ProviderBase is the template of the transport under every call to a
// provider (its TLS settings, its limits); the tests' is one that trusts
// their TLS servers. Its dialer and proxy are never used: see
// providerTransports.
var ProviderBase = http.DefaultTransport.(*http.Transport)

// ProviderClient makes the calls to the provider whose own URL (an OIDC
// issuer, a SAML metadata URL) is providerURL: each within providerTimeout,
// each answer read up to maxProviderResponse, and each to an https URL. A
// provider's answers name further URLs (discovery's token endpoint and
// JWKS, a redirect), so this is checked at every request: a provider
// cannot send this server to a plain-http address, such as a service on
// this machine or this network. Plain http to a loopback host is allowed
// only when the provider's own URL is one (an IdP on this machine, a test).
//
// Nor can it send this server to another host inside its network over
// https: every connection is checked when it is made (providerDialer), on
// the address it goes to. The provider's own host, as configured, may be
// anywhere (an IdP on this network); any other host a call reaches must be
// at a public address (publicAddr).
func ProviderClient(providerURL string) *http.Client {
	u, err := url.Parse(providerURL)
	loopbackHTTP := err == nil && u.Scheme == "http" && isLoopback(u.Hostname())
	own := ""
	if err == nil {
		own = ownHost(u)
	}
	return &http.Client{Timeout: ProviderTimeout,
		Transport: providerTransport{base: providerTransports.get(ProviderBase, own), loopbackHTTP: loopbackHTTP}}
}

// ownHost is the host and port a connection to u goes to, the port the
// scheme's when u names none, the host in lower case: the key of
// providerDialer's exemption.
func ownHost(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "443"
		if u.Scheme == "http" {
			port = "80"
		}
	}
	return net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// ProviderContext is ctx with the providerClient of providerURL, for
// go-oidc and oauth2 (go-oidc keeps it for the JWKS it fetches later).
func ProviderContext(ctx context.Context, providerURL string) context.Context {
	return oidc.ClientContext(ctx, ProviderClient(providerURL))
}

// providerTransport is providerClient's transport.
type providerTransport struct {
	base         http.RoundTripper
	loopbackHTTP bool
}

func (t providerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Scheme != "https" && !(t.loopbackHTTP && r.URL.Scheme == "http" && isLoopback(r.URL.Hostname())) {
		return nil, fmt.Errorf("a provider's URL must be https, not %s://%s", r.URL.Scheme, r.URL.Host)
	}
	resp, err := t.base.RoundTrip(r)
	if err == nil {
		resp.Body = &limitedBody{ReadCloser: resp.Body, left: maxProviderResponse}
	}
	return resp, err
}

// providerTransports keeps one transport (and so one pool of connections)
// per template and provider host: the host the dialer lets go anywhere.
// There are as many as providers configured.
var providerTransports transportCache

type transportCache struct {
	mu sync.Mutex
	m  map[transportKey]*http.Transport
}

type transportKey struct {
	base *http.Transport
	own  string
}

// get returns the transport like base whose connections providerDialer
// checks, own being the provider's host and port.
func (c *transportCache) get(base *http.Transport, own string) *http.Transport {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := transportKey{base, own}
	if t := c.m[k]; t != nil {
		return t
	}
	t := base.Clone()
	// A proxy would make the connection for us, to an address this server
	// does not see: provider calls go direct.
	t.Proxy = nil
	t.DialContext = providerDialer(own)
	t.DialTLSContext = nil
	if c.m == nil {
		c.m = map[transportKey]*http.Transport{}
	}
	c.m[k] = t
	return t
}

// providerDialer connects to addr ("host:port", as the URL named it): to
// wherever it resolves when it is own, the provider's own host and port as
// configured; otherwise only to a public address, checked on each address
// the dialer tries (after resolution, just before the connection), so that
// neither a name resolving inside the network nor a name that resolves
// elsewhere the second time (DNS rebinding) gets through.
func providerDialer(own string) func(ctx context.Context, network, addr string) (net.Conn, error) {
	anywhere := &net.Dialer{Timeout: ProviderTimeout, KeepAlive: 30 * time.Second}
	public := &net.Dialer{Timeout: ProviderTimeout, KeepAlive: 30 * time.Second,
		ControlContext: func(_ context.Context, _, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil || !PublicAddr(ap.Addr()) {
				return &refusedAddressError{addr: address}
			}
			return nil
		}}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		if host, port, err := net.SplitHostPort(addr); err == nil && net.JoinHostPort(strings.ToLower(host), port) == own {
			return anywhere.DialContext(ctx, network, addr)
		}
		conn, err := public.DialContext(ctx, network, addr)
		if refused := (*refusedAddressError)(nil); errors.As(err, &refused) {
			refused.host = addr
			return nil, refused
		}
		return conn, err
	}
}

// refusedAddressMessage is in the text of every refusedAddressError, which
// go-oidc keeps only as text.
const refusedAddressMessage = "is not a public address, and only the provider's own host may be inside the network"

// refusedAddressError is a connection providerDialer refused.
type refusedAddressError struct {
	host string // as the URL named it
	addr string // where it resolved
}

func (e *refusedAddressError) Error() string {
	return fmt.Sprintf("provider call to %s refused: %s %s", e.host, e.addr, refusedAddressMessage)
}

// IsRefusedAddress reports whether err is, or tells of, a connection
// providerDialer refused.
func IsRefusedAddress(err error) bool {
	var refused *refusedAddressError
	return errors.As(err, &refused) || (err != nil && strings.Contains(err.Error(), refusedAddressMessage))
}

// nonPublic are the networks no provider call may reach on a host other
// than the provider's own: this host, private, shared (CGNAT), link-local,
// unique-local, documentation, benchmarking, reserved, multicast.
// IPv4-mapped, NAT64 and 6to4 addresses are judged by the IPv4 address
// they carry (publicAddr).
var nonPublic = func() []netip.Prefix {
	var out []netip.Prefix
	for _, p := range []string{
		"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
		"192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15",
		"198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
		"::/96",          // unspecified, loopback, and the deprecated IPv4-compatible addresses
		"64:ff9b:1::/48", // NAT64 of a local network (RFC 8215)
		"100::/64",       // discard
		"2001::/32",      // Teredo
		"2001:db8::/32",  // documentation
		"fc00::/7",       // unique-local
		"fe80::/10",      // link-local
		"fec0::/10",      // site-local (deprecated)
		"ff00::/8",       // multicast
	} {
		out = append(out, netip.MustParsePrefix(p))
	}
	return out
}()

var (
	nat64Prefix = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour   = netip.MustParsePrefix("2002::/16")
)

// PublicAddr reports whether a is an address on the public internet: not
// in nonPublic, nor an IPv4-mapped, NAT64 (64:ff9b::/96) or 6to4
// (2002::/16) form of an address that is.
func PublicAddr(a netip.Addr) bool {
	if !a.IsValid() {
		return false
	}
	a = a.WithZone("")
	if a.Is4In6() {
		return PublicAddr(a.Unmap())
	}
	if b := a.As16(); nat64Prefix.Contains(a) {
		return PublicAddr(netip.AddrFrom4([4]byte(b[12:16])))
	} else if sixToFour.Contains(a) {
		return PublicAddr(netip.AddrFrom4([4]byte(b[2:6])))
	}
	for _, p := range nonPublic {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

// limitedBody fails the read of a body beyond maxProviderResponse.
type limitedBody struct {
	io.ReadCloser
	left int64
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, fmt.Errorf("the provider's answer is larger than %d bytes", maxProviderResponse)
	}
	if int64(len(p)) > b.left {
		p = p[:b.left+1] // one more, to tell a body of exactly the limit from a longer one
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		return n, fmt.Errorf("the provider's answer is larger than %d bytes", maxProviderResponse)
	}
	return n, err
}
