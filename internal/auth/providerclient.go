package auth

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/coreos/go-oidc/v3/oidc"
)

// providerBase is the transport under every call to a provider; the
// tests' is one that trusts their TLS servers.
var providerBase http.RoundTripper = http.DefaultTransport

// providerClient makes the calls to the provider whose own URL (an OIDC
// issuer, a SAML metadata URL) is providerURL: each within providerTimeout,
// each answer read up to maxProviderResponse, and each to an https URL. A
// provider's answers name further URLs (discovery's token endpoint and
// JWKS, a redirect), so this is checked at every request: a provider
// cannot send this server to a plain-http address, such as a service on
// this machine or this network. Plain http to a loopback host is allowed
// only when the provider's own URL is one (an IdP on this machine, a test).
func providerClient(providerURL string) *http.Client {
	u, err := url.Parse(providerURL)
	loopbackHTTP := err == nil && u.Scheme == "http" && isLoopback(u.Hostname())
	return &http.Client{Timeout: providerTimeout, Transport: providerTransport{base: providerBase, loopbackHTTP: loopbackHTTP}}
}

// providerContext is ctx with the providerClient of providerURL, for
// go-oidc and oauth2 (go-oidc keeps it for the JWKS it fetches later).
func providerContext(ctx context.Context, providerURL string) context.Context {
	return oidc.ClientContext(ctx, providerClient(providerURL))
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
