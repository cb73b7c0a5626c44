package auth

import (
	"context"
	"net/http"
	"net/http/httptest"
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
	saved := providerBase
	providerBase = idp.Client().Transport // trusts the test server's certificate
	defer func() { providerBase = saved }()

	get := func(providerURL, target string) error {
		resp, err := providerClient(providerURL).Get(target)
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
		{"loopback http provider, https", plain.URL, idp.URL + "/x", true},
	} {
		err := get(c.provider, c.target)
		if (err == nil) != c.ok || (err != nil && !strings.Contains(err.Error(), "must be https")) {
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
	if _, err := discover(context.Background(), idp.URL); err == nil || !strings.Contains(err.Error(), "must be https") {
		t.Errorf("OIDC discovery redirected to plain http: %v", err)
	}
	if n := plainHits.Load(); n != 0 {
		t.Errorf("the plain-http server was reached %d times through a provider", n)
	}
}
