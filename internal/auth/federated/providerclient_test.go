package federated

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
)

// TestProviderClientStaysOnHTTPS: no call to a provider, nor any URL its
// answers name (a redirect, discovery's endpoints), goes to plain http,
// but to a loopback host for a provider that is itself there.
func TestProviderClientStaysOnHTTPS(t *testing.T) {
	var plainHits atomic.Int32
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		plainHits.Add(1)
		_, _ = w.Write([]byte("internal"))
	}))
	defer plain.Close()
	idp := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, plain.URL+"/metadata", http.StatusFound)
		case "/.well-known/openid-configuration":
			http.Redirect(w, r, plain.URL+"/.well-known/openid-configuration", http.StatusFound)
		default:
			_, _ = w.Write([]byte("ok"))
		}
	}))
	defer idp.Close()
	saved := ProviderBase
	ProviderBase = idp.Client().Transport.(*http.Transport) // trusts the test server's certificate
	defer func() { ProviderBase = saved }()

	get := func(providerURL, target string) error {
		resp, err := ProviderClient(providerURL).Get(target)
		if err == nil {
			resp.Body.Close()
		}
		return err
	}
	for _, c := range []struct {
		name, provider, target string
		ok                     bool
	}{
		{"https", idp.URL, idp.URL + "/x", true},
		{"https provider, http loopback URL", idp.URL, plain.URL + "/x", false},
		{"https provider, http URL elsewhere", idp.URL, "http://10.0.0.1/x", false},
		{"https provider, redirect to http loopback", idp.URL, idp.URL + "/away", false},
		{"loopback http provider, its own host", plain.URL, plain.URL + "/x", true},
		{"loopback http provider, http URL elsewhere", plain.URL, "http://10.0.0.1/x", false},
		{"loopback http provider, its own host under another name", plain.URL, strings.Replace(plain.URL, "127.0.0.1", "localhost", 1) + "/x", false},
	} {
		err := get(c.provider, c.target)
		if (err == nil) != c.ok || (err != nil && !strings.Contains(err.Error(), "must be https") && !IsRefusedAddress(err)) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	if n := plainHits.Load(); n != 1 { // the loopback provider's call to its own host
		t.Errorf("the plain-http server was reached %d times, want once", n)
	}

	plainHits.Store(0)
	if _, err := FetchSAMLMetadata(context.Background(), idp.URL+"/away"); err == nil || !strings.Contains(err.Error(), "must be https") {
		t.Errorf("SAML metadata redirected to plain http: %v", err)
	}
	if _, err := Discover(context.Background(), idp.URL); err == nil || !strings.Contains(err.Error(), "must be https") {
		t.Errorf("OIDC discovery redirected to plain http: %v", err)
	}
	if n := plainHits.Load(); n != 0 {
		t.Errorf("the plain-http server was reached %d times through a provider", n)
	}
}

// TestProviderClientStaysOutside: a call a provider causes connects to the
// provider's own host as configured (host and port), wherever that is, and
// to any other host only at a public address: another server on this
// machine, or the provider's own server under another name, is refused at
// connect time, whether a URL of its answers or a redirect names it.
func TestProviderClientStaysOutside(t *testing.T) {
	var insideHits atomic.Int32
	inside := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		insideHits.Add(1)
		_, _ = w.Write([]byte("internal"))
	}))
	defer inside.Close()
	idp := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, inside.URL+"/metadata", http.StatusFound)
		case "/.well-known/openid-configuration":
			http.Redirect(w, r, inside.URL+"/.well-known/openid-configuration", http.StatusFound)
		case "/here":
			http.Redirect(w, r, "/x", http.StatusFound)
		default:
			_, _ = w.Write([]byte("ok"))
		}
	}))
	defer idp.Close()
	saved := ProviderBase
	ProviderBase = idp.Client().Transport.(*http.Transport)
	defer func() { ProviderBase = saved }()
	port := idp.URL[strings.LastIndex(idp.URL, ":")+1:]

	get := func(providerURL, target string) error {
		resp, err := ProviderClient(providerURL).Get(target)
		if err == nil {
			resp.Body.Close()
		}
		return err
	}
	for _, c := range []struct {
		name, provider, target string
		ok                     bool
	}{
		{"its own host", idp.URL, idp.URL + "/x", true},
		{"its own host, redirected there", idp.URL, idp.URL + "/here", true},
		{"another host on 127.0.0.1", idp.URL, inside.URL + "/x", false},
		{"redirected to another host on 127.0.0.1", idp.URL, idp.URL + "/away", false},
		{"its own port under another name that resolves inside", idp.URL, "https://localhost:" + port + "/x", false},
		{"its own host on another port", idp.URL, "https://127.0.0.1:1/x", false},
		{"another private address", idp.URL, "https://10.255.255.1/x", false},
		{"the cloud's metadata service", idp.URL, "https://169.254.169.254/latest/meta-data/", false},
		{"IPv4-mapped loopback", idp.URL, "https://[::ffff:127.0.0.1]:" + port + "/x", false},
	} {
		err := get(c.provider, c.target)
		if (err == nil) != c.ok || (err != nil && !IsRefusedAddress(err)) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	if _, err := FetchSAMLMetadata(context.Background(), idp.URL+"/away"); !IsRefusedAddress(err) {
		t.Errorf("SAML metadata redirected to another host inside: %v", err)
	}
	if _, err := Discover(context.Background(), idp.URL); !IsRefusedAddress(err) {
		t.Errorf("OIDC discovery redirected to another host inside: %v", err)
	}
	if n := insideHits.Load(); n != 0 {
		t.Errorf("the other host inside was reached %d times through a provider", n)
	}
	// The other server is a provider's own host when it is configured as one.
	if err := get(inside.URL, inside.URL+"/x"); err != nil || insideHits.Load() != 1 {
		t.Errorf("a provider on 127.0.0.1 calling its own host: %v", err)
	}
}

// publicAddrCases are addresses and whether a provider's answers may send
// this server there.
var publicAddrCases = []struct {
	addr   string
	public bool
}{
	{"8.8.8.8", true}, {"1.1.1.1", true}, {"172.32.0.1", true}, {"100.128.0.1", true}, {"11.0.0.1", true},
	{"192.169.0.1", true}, {"2606:4700:4700::1111", true}, {"2001:4860:4860::8888", true},
	{"::ffff:8.8.8.8", true}, {"64:ff9b::808:808", true}, {"2002:808:808::1", true},

	{"127.0.0.1", false}, {"127.255.255.254", false}, {"10.1.2.3", false}, {"172.16.0.1", false}, {"172.31.255.255", false},
	{"192.168.1.1", false}, {"100.64.0.1", false}, {"100.127.255.255", false}, {"169.254.169.254", false},
	{"0.0.0.0", false}, {"0.1.2.3", false}, {"224.0.0.1", false}, {"239.255.255.250", false}, {"255.255.255.255", false},
	{"240.0.0.1", false}, {"192.0.0.170", false}, {"192.0.2.1", false}, {"198.18.0.1", false}, {"203.0.113.9", false},
	{"::", false}, {"::1", false}, {"::127.0.0.1", false}, {"::ffff:127.0.0.1", false}, {"::ffff:10.0.0.1", false},
	{"::ffff:169.254.169.254", false}, {"::ffff:100.64.0.1", false}, {"::ffff:0.0.0.0", false},
	{"fc00::1", false}, {"fd12:3456::1", false}, {"fe80::1", false}, {"fe80::1%eth0", false}, {"fec0::1", false},
	{"ff02::1", false}, {"ff05::2", false}, {"2001:db8::1", false}, {"2001::1", false}, {"100::1", false},
	{"64:ff9b::7f00:1", false}, {"64:ff9b::a00:1", false}, {"64:ff9b::a9fe:a9fe", false}, {"64:ff9b:1::1", false},
	{"2002:7f00:1::1", false}, {"2002:c0a8:101::1", false},
}

// TestPublicAddr: the addresses of hosts other than a provider's own that
// a provider call may connect to.
func TestPublicAddr(t *testing.T) {
	for _, c := range publicAddrCases {
		a := netip.MustParseAddr(c.addr)
		if got := PublicAddr(a); got != c.public {
			t.Errorf("publicAddr(%s) = %v, want %v", c.addr, got, c.public)
		}
	}
	if PublicAddr(netip.Addr{}) {
		t.Error("the zero Addr is public")
	}
}

// FuzzPublicAddr: no address the standard library calls loopback,
// private, link-local, multicast or unspecified is public, in any of its
// IPv6 forms (IPv4-mapped, NAT64, 6to4) either; an IPv4 address and those
// forms of it are judged alike.
func FuzzPublicAddr(f *testing.F) {
	for _, c := range publicAddrCases {
		f.Add(netip.MustParseAddr(c.addr).AsSlice())
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		a, ok := netip.AddrFromSlice(b)
		if !ok {
			return
		}
		public := PublicAddr(a)
		for _, x := range []netip.Addr{a, a.Unmap()} {
			if public && (x.IsLoopback() || x.IsPrivate() || x.IsLinkLocalUnicast() || x.IsLinkLocalMulticast() ||
				x.IsInterfaceLocalMulticast() || x.IsMulticast() || x.IsUnspecified() || !x.IsGlobalUnicast()) {
				t.Fatalf("publicAddr(%s) is true", x)
			}
		}
		if again := PublicAddr(netip.MustParseAddr(a.String())); again != public {
			t.Fatalf("publicAddr(%s) = %v, but %v once printed and parsed", a, public, again)
		}
		if !a.Is4() {
			return
		}
		v4 := a.As4()
		mapped := netip.AddrFrom16([16]byte{10: 0xff, 11: 0xff, 12: v4[0], 13: v4[1], 14: v4[2], 15: v4[3]})
		nat64 := netip.AddrFrom16([16]byte{0: 0, 1: 0x64, 2: 0xff, 3: 0x9b, 12: v4[0], 13: v4[1], 14: v4[2], 15: v4[3]})
		sixToFour := netip.AddrFrom16([16]byte{0: 0x20, 1: 0x02, 2: v4[0], 3: v4[1], 4: v4[2], 5: v4[3], 15: 1})
		for _, x := range []netip.Addr{mapped, nat64, sixToFour} {
			if PublicAddr(x) != public {
				t.Fatalf("publicAddr(%s) = %v, but publicAddr(%s) = %v", a, public, x, PublicAddr(x))
			}
		}
	})
}
