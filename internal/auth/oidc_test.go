package auth_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"

	"studio/internal/auth/federated"
	"studio/internal/staff"
)

// fakeIdP is an OpenID Connect provider in this process: discovery, its
// keys (JWKS) and a token endpoint that checks the client's authentication
// (client_secret_basic, or client_secret_post when that is all it allows),
// the redirect URI and the PKCE verifier, as a real provider does. A test
// "signs in" at it with grant, which returns the code the provider would
// send back with the claims its ID token will carry.
type fakeIdP struct {
	t           testing.TB
	srv         *httptest.Server
	key         *ecdsa.PrivateKey
	clientID    string
	secret      string
	authMethods []string // token_endpoint_auth_methods_supported
	issParam    bool     // authorization_response_iss_parameter_supported
	// jwksURI and tokenURI, when set, are what discovery names instead of
	// the provider's own /jwks and /token.
	jwksURI, tokenURI string
	jwksHits          atomic.Int32 // reads of its /jwks

	mu     sync.Mutex
	grants map[string]idpGrant // by code
}

// idpGrant is a sign-in at the provider, until its code is exchanged.
type idpGrant struct {
	challenge   string // the client's PKCE challenge (S256)
	redirectURI string
	claims      map[string]any
	signWith    *ecdsa.PrivateKey // a key other than the provider's: a bad signature
}

const idpKID = "idp-key-1"

func newFakeIdP(t testing.TB, authMethods ...string) *fakeIdP {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	idp := &fakeIdP{t: t, key: key, clientID: "studio-client", secret: "s3cret", authMethods: authMethods, grants: map[string]idpGrant{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", idp.discovery)
	mux.HandleFunc("GET /jwks", func(w http.ResponseWriter, r *http.Request) {
		idp.jwksHits.Add(1)
		writeJSON(w, 200, jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: idpKID, Algorithm: "ES256", Use: "sig"}}})
	})
	mux.HandleFunc("POST /token", idp.token)
	idp.srv = httptest.NewServer(mux)
	t.Cleanup(idp.srv.Close)
	return idp
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (idp *fakeIdP) issuer() string { return idp.srv.URL }

func (idp *fakeIdP) discovery(w http.ResponseWriter, r *http.Request) {
	doc := map[string]any{
		"issuer": idp.issuer(), "authorization_endpoint": idp.issuer() + "/authorize", "token_endpoint": idp.issuer() + "/token",
		"jwks_uri": idp.issuer() + "/jwks", "response_types_supported": []string{"code"},
		"id_token_signing_alg_values_supported": []string{"ES256"}, "subject_types_supported": []string{"public"},
	}
	if idp.jwksURI != "" {
		doc["jwks_uri"] = idp.jwksURI
	}
	if idp.tokenURI != "" {
		doc["token_endpoint"] = idp.tokenURI
	}
	if idp.authMethods != nil {
		doc["token_endpoint_auth_methods_supported"] = idp.authMethods
	}
	if idp.issParam {
		doc["authorization_response_iss_parameter_supported"] = true
	}
	writeJSON(w, 200, doc)
}

// token is the token endpoint: authorization_code with PKCE.
func (idp *fakeIdP) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		writeJSON(w, 400, map[string]string{"error": "invalid_request"})
		return
	}
	id, secret, basic := r.BasicAuth()
	if slices.Equal(idp.authMethods, []string{"client_secret_post"}) {
		id, secret, basic = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret"), false
		if r.Header.Get("Authorization") != "" {
			writeJSON(w, 401, map[string]string{"error": "invalid_client", "error_description": "client_secret_post only"})
			return
		}
	} else if !basic {
		writeJSON(w, 401, map[string]string{"error": "invalid_client", "error_description": "client_secret_basic required"})
		return
	}
	if id != idp.clientID || secret != idp.secret {
		writeJSON(w, 401, map[string]string{"error": "invalid_client"})
		return
	}
	idp.mu.Lock()
	g, ok := idp.grants[r.PostForm.Get("code")]
	delete(idp.grants, r.PostForm.Get("code"))
	idp.mu.Unlock()
	sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
	switch {
	case r.PostForm.Get("grant_type") != "authorization_code" || !ok:
		writeJSON(w, 400, map[string]string{"error": "invalid_grant"})
		return
	case r.PostForm.Get("redirect_uri") != g.redirectURI:
		writeJSON(w, 400, map[string]string{"error": "invalid_grant", "error_description": "redirect_uri"})
		return
	case base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge:
		writeJSON(w, 400, map[string]string{"error": "invalid_grant", "error_description": "PKCE verifier"})
		return
	}
	accessToken := "at-" + randomHex(idp.t)
	claims := maps.Clone(g.claims)
	claims["at_hash"] = atHash(accessToken)
	writeJSON(w, 200, map[string]any{"access_token": accessToken, "token_type": "Bearer", "expires_in": 3600,
		"id_token": idp.signWith(claims, g.signWith)})
}

// sign signs claims as the provider's ID token.
func (idp *fakeIdP) sign(claims map[string]any) string { return idp.signWith(claims, nil) }

func (idp *fakeIdP) signWith(claims map[string]any, key *ecdsa.PrivateKey) string {
	idp.t.Helper()
	if key == nil {
		key = idp.key
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: jose.JSONWebKey{Key: key, KeyID: idpKID}},
		(&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		idp.t.Fatal(err)
	}
	payload, _ := json.Marshal(claims)
	jws, err := signer.Sign(payload)
	if err != nil {
		idp.t.Fatal(err)
	}
	out, err := jws.CompactSerialize()
	if err != nil {
		idp.t.Fatal(err)
	}
	return out
}

// claims are an ID token's claims for subject and email, valid at now for
// the client, with nonce.
func (idp *fakeIdP) claims(now time.Time, subject, email, nonce string) map[string]any {
	c := map[string]any{"iss": idp.issuer(), "aud": idp.clientID, "sub": subject, "email": email, "email_verified": true,
		"name": "Person " + subject, "iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix()}
	if nonce != "" {
		c["nonce"] = nonce
	}
	return c
}

// grant "signs in" at the provider for the authorization request authURL
// (from /authorize): it checks the request, keeps claims (nil: none set
// here, see tweak) for the code it returns, and returns the callback URL
// the provider sends the browser to. tweak changes the claims made from
// the request (nonce included) before they are kept.
func (idp *fakeIdP) grant(authURL *url.URL, now time.Time, subject, email string, tweak func(map[string]any), bad *ecdsa.PrivateKey) string {
	idp.t.Helper()
	q := authURL.Query()
	if q.Get("code_challenge_method") != "S256" || q.Get("response_type") != "code" || q.Get("client_id") != idp.clientID {
		idp.t.Fatalf("authorization request %s", authURL)
	}
	claims := idp.claims(now, subject, email, q.Get("nonce"))
	if tweak != nil {
		tweak(claims)
	}
	code := randomHex(idp.t)
	idp.mu.Lock()
	idp.grants[code] = idpGrant{challenge: q.Get("code_challenge"), redirectURI: q.Get("redirect_uri"), claims: claims, signWith: bad}
	idp.mu.Unlock()
	return q.Get("redirect_uri") + "?" + url.Values{"code": {code}, "state": {q.Get("state")}}.Encode()
}

func randomHex(t testing.TB) string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// atHash is the at_hash of an access token for ES256.
func atHash(accessToken string) string {
	sum := sha256.Sum256([]byte(accessToken))
	return base64.RawURLEncoding.EncodeToString(sum[:16])
}

// addProvider adds idp to f's store as name, with domains allowed.
func (f *fixture) addProvider(idp *fakeIdP, name string, scopes []string, domains ...string) staff.Provider {
	f.t.Helper()
	p, err := federated.NewOIDCProvider(context.Background(), federated.OIDCProviderSpec{Name: name, Issuer: idp.issuer(),
		ClientID: idp.clientID, ClientSecret: idp.secret, Scopes: scopes, Domains: domains}, f.secrets, f.clock.Now())
	if err != nil {
		f.t.Fatal(err)
	}
	if err := f.db.AddProvider(context.Background(), p, staff.AuditEntry{At: f.clock.Now(), Action: staff.ActionProviderAdded}); err != nil {
		f.t.Fatal(err)
	}
	return p
}

// location is the Location of a redirect answer.
func location(t testing.TB, r response) *url.URL {
	t.Helper()
	if r.status != http.StatusFound {
		t.Fatalf("want a 302, got %d %s", r.status, r.raw)
	}
	u, err := url.Parse(r.header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// callback follows the provider's redirect to the service's callback.
func (f *fixture) callback(callbackURL string) *url.URL {
	f.t.Helper()
	u, err := url.Parse(callbackURL)
	if err != nil || u.Scheme+"://"+u.Host != origin || u.Path != "/auth/v1/callback" {
		f.t.Fatalf("redirect_uri %q", callbackURL)
	}
	return location(f.t, f.do("GET", u.RequestURI(), ""))
}

func s256(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// identities are the providers of the user's identities (GET /user).
func (f *fixture) identities(session map[string]any) []string {
	f.t.Helper()
	r := f.do("GET", "/auth/v1/user", "", bearer(session)...)
	if r.status != 200 {
		f.t.Fatalf("GET /user = %d %s", r.status, r.raw)
	}
	var out []string
	for _, id := range r.body["identities"].([]any) {
		m := id.(map[string]any)
		out = append(out, m["provider"].(string)+":"+m["id"].(string))
	}
	return out
}

// sessionOf reads the session in the fragment of an implicit flow's end.
func sessionOf(t testing.TB, u *url.URL) map[string]any {
	t.Helper()
	v := fragment(t, u)
	if v.Get("access_token") == "" {
		t.Fatalf("no access_token at %s", u)
	}
	return map[string]any{"access_token": v.Get("access_token"), "refresh_token": v.Get("refresh_token")}
}

// amr is the methods of an access token's amr claim (not verified: the
// service signed it).
func amr(t testing.TB, accessToken string) []string {
	t.Helper()
	parts := strings.Split(accessToken, ".")
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var claims struct {
		AMR []struct {
			Method string `json:"method"`
		} `json:"amr"`
	}
	if err := json.Unmarshal(payload, &claims); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, a := range claims.AMR {
		out = append(out, a.Method)
	}
	return out
}

// loginFailures returns the details of the login_failed entries of the
// audit log, oldest first.
func (f *fixture) loginFailures() []string {
	f.t.Helper()
	entries, err := f.db.ListAudit(context.Background(), time.Time{})
	if err != nil {
		f.t.Fatal(err)
	}
	var details []string
	for _, e := range entries {
		if e.Action == staff.ActionLoginFailed {
			details = append(details, e.Detail)
		}
	}
	return details
}

// lastLoginFailure returns the detail of the last login_failed entry of the
// audit log, "" for none.
func (f *fixture) lastLoginFailure() string {
	f.t.Helper()
	if all := f.loginFailures(); len(all) > 0 {
		return all[len(all)-1]
	}
	return ""
}
