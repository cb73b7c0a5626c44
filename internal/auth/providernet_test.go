package auth_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"studio/internal/auth"
	"studio/internal/auth/federated"
)

// logBuffer is a log a test reads.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// insideHost is another server on 127.0.0.1 (another host of the studio's
// network) answering as idp does, and how many requests it got.
func insideHost(t *testing.T, idp *fakeIdP) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		idp.srv.Config.Handler.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// TestOIDCProviderCallsStayOutside: a provider on 127.0.0.1 whose
// discovery names another host inside the network (another server on
// 127.0.0.1, or its own server under the name localhost) for its JWKS or
// its token endpoint does not send this server there: the connection is
// refused, logged, and the sign-in (grant_type=id_token, or the callback)
// fails as the provider failing, audited; the other host is never reached.
func TestOIDCProviderCallsStayOutside(t *testing.T) {
	var logs logBuffer
	f := newFixture(t, sqlite(), func(c *auth.Config) { c.Logger = slog.New(slog.NewTextHandler(&logs, nil)) })
	grant := func(provider string, idp *fakeIdP) response {
		token := idp.sign(idp.claims(f.clock.Now(), "ada-at-"+provider, adaEmail, ""))
		return f.do("POST", "/auth/v1/token?grant_type=id_token", `{"provider":"`+provider+`","id_token":"`+token+`"}`)
	}
	unreachable := func(name string, r response, provider string) {
		t.Helper()
		if r.status != http.StatusBadGateway || r.body["error_code"] != "unexpected_failure" || r.body["access_token"] != nil ||
			r.body["msg"] != "The provider "+provider+" could not be reached, please try again later" {
			t.Errorf("%s = %d %s", name, r.status, r.raw)
		}
		if got, want := f.lastLoginFailure(), "oidc "+provider+": provider unreachable"; got != want {
			t.Errorf("%s: audit login_failed %q, want %q", name, got, want)
		}
	}

	// Its JWKS on another server on 127.0.0.1, which serves its keys.
	acme := newFakeIdP(t)
	inside, insideHits := insideHost(t, acme)
	acme.jwksURI = inside.URL + "/jwks"
	f.addProvider(acme, "acme", nil, "studio.test")
	unreachable("JWKS on another host inside", grant("acme", acme), "acme")
	// The same at the callback: the flow comes back with the provider's
	// failure.
	start := location(t, f.do("GET", "/auth/v1/authorize?provider=acme&redirect_to="+url.QueryEscape(origin+"/admin/next"), ""))
	to := f.callback(acme.grant(start, f.clock.Now(), "ada-at-acme", adaEmail, nil, nil))
	if v := fragment(t, to); v.Get("error_code") != "unexpected_failure" || v.Get("access_token") != "" ||
		v.Get("error_description") != "The provider acme could not be reached, please try again later" {
		t.Errorf("JWKS on another host inside, at the callback: back at %s", to)
	}
	if got, want := f.lastLoginFailure(), "oidc acme: provider unreachable"; got != want {
		t.Errorf("JWKS on another host inside, at the callback: audit login_failed %q, want %q", got, want)
	}
	if n := insideHits.Load(); n != 0 {
		t.Errorf("the other host was reached %d times", n)
	}
	if !strings.Contains(logs.String(), "provider call refused") || !strings.Contains(logs.String(), "is not a public address") {
		t.Errorf("the refusal is not logged: %s", logs.String())
	}

	// Its JWKS on its own server, named localhost where it was added as
	// 127.0.0.1: another host, which resolves inside.
	named := newFakeIdP(t)
	named.jwksURI = strings.Replace(named.issuer(), "127.0.0.1", "localhost", 1) + "/jwks"
	f.addProvider(named, "named", nil, "studio.test")
	unreachable("JWKS on its own server under another name", grant("named", named), "named")
	if n := named.jwksHits.Load(); n != 0 {
		t.Errorf("its server was reached under another name %d times", n)
	}

	// Its token endpoint on another server on 127.0.0.1: the code is not
	// sent there, and the sign-in comes back with the provider's failure.
	beta := newFakeIdP(t)
	betaInside, betaHits := insideHost(t, beta)
	beta.tokenURI = betaInside.URL + "/token"
	f.addProvider(beta, "beta", nil, "studio.test")
	start = location(t, f.do("GET", "/auth/v1/authorize?provider=beta&redirect_to="+url.QueryEscape(origin+"/admin/next"), ""))
	to = f.callback(beta.grant(start, f.clock.Now(), "ada-at-beta", adaEmail, nil, nil))
	if v := fragment(t, to); v.Get("error_code") != "bad_oauth_callback" || v.Get("access_token") != "" ||
		v.Get("error_description") != "The provider beta did not exchange the code" {
		t.Errorf("token endpoint on another host inside: back at %s", to)
	}
	if got, want := f.lastLoginFailure(), "oidc beta: code exchange"; got != want {
		t.Errorf("token endpoint on another host inside: audit login_failed %q, want %q", got, want)
	}
	if n := betaHits.Load(); n != 0 {
		t.Errorf("the other host was reached %d times", n)
	}

	// Its own host serves all: the sign-in works (the providers of every
	// other test are on 127.0.0.1 too).
	own := newFakeIdP(t)
	f.addProvider(own, "own", nil, "studio.test")
	if r := grant("own", own); r.status != 200 {
		t.Errorf("a provider on its own host = %d %s", r.status, r.raw)
	}
}

// TestSAMLMetadataStaysOutside: metadata fetched from a URL on 127.0.0.1
// may be redirected on that host, but not to another host inside the
// network (another server on 127.0.0.1, or the same one named localhost):
// the fetch fails and the other host is never reached.
func TestSAMLMetadataStaysOutside(t *testing.T) {
	idp, _ := idps(t)
	good := idp.metadata(t)
	var insideHits atomic.Int32
	inside := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		insideHits.Add(1)
		_, _ = w.Write(good)
	}))
	defer inside.Close()
	var ownHits atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/metadata", func(w http.ResponseWriter, r *http.Request) {
		ownHits.Add(1)
		_, _ = w.Write(good)
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/metadata", http.StatusFound) })
	mux.HandleFunc("/inside", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, inside.URL+"/metadata", http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	mux.HandleFunc("/renamed", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)+"/metadata", http.StatusFound)
	})

	if got, err := federated.FetchSAMLMetadata(context.Background(), srv.URL+"/moved"); err != nil || !bytes.Equal(got, good) {
		t.Errorf("redirected on its own host: %v", err)
	}
	ownHits.Store(0)
	for _, path := range []string{"/inside", "/renamed"} {
		if _, err := federated.FetchSAMLMetadata(context.Background(), srv.URL+path); err == nil || !strings.Contains(err.Error(), "is not a public address") {
			t.Errorf("redirected from %s to another host inside: %v", path, err)
		}
	}
	if insideHits.Load() != 0 || ownHits.Load() != 0 {
		t.Errorf("reached through a redirect: the other server %d times, its own under another name %d times", insideHits.Load(), ownHits.Load())
	}
}
