package auth_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"studio/internal/auth"
	"studio/internal/auth/federated"
	"studio/internal/secretkey"
	"studio/internal/staff"
	"studio/internal/store/storetest"
)

// TestOAuthAuthorizeURL: /authorize sends the browser to the provider's
// authorization endpoint with this service's client id, redirect URI,
// scopes, a fresh state and nonce and its own PKCE challenge; a client's
// extra parameters pass when they are on the allow-list (login_hint,
// prompt, hd, access_type, domain_hint, ui_locales), never the others (a
// request object, response_mode, claims, …) nor those the service sets; an
// unknown provider or bad PKCE parameters are GoTrue's 400.
func TestOAuthAuthorizeURL(t *testing.T) {
	f := newFixture(t, sqlite())
	idp := newFakeIdP(t)
	f.addProvider(idp, "acme", []string{"groups"})

	r := f.do("GET", "/auth/v1/authorize?provider=acme&redirect_to="+url.QueryEscape(origin+"/admin/next")+
		"&scopes=offline_access+groups&login_hint=ada&state=evil&client_id=evil&redirect_uri=https://evil.test/&nonce=evil&Scope=evil&response_type=token"+
		"&prompt=select_account&hd=studio.test&access_type=offline&domain_hint=studio.test&ui_locales=fr"+
		"&request=eyJhbGciOiJub25lIn0.eyJub25jZSI6ImV2aWwifQ.&request_uri=https://evil.test/req&response_mode=fragment"+
		"&claims=%7B%7D&code_verifier=evil&max_age=0&registration=x&Login_Hint=evil", "")
	u := location(t, r)
	if got := u.Scheme + "://" + u.Host + u.Path; got != idp.issuer()+"/authorize" {
		t.Fatalf("redirect to %s", got)
	}
	q := u.Query()
	want := map[string]string{"client_id": idp.clientID, "redirect_uri": origin + "/auth/v1/callback", "response_type": "code",
		"scope": "openid email profile groups offline_access", "code_challenge_method": "S256", "login_hint": "ada",
		"prompt": "select_account", "hd": "studio.test", "access_type": "offline", "domain_hint": "studio.test", "ui_locales": "fr"}
	for k, v := range want {
		if q.Get(k) != v || len(q[k]) != 1 {
			t.Errorf("%s = %q, want %q", k, q[k], v)
		}
	}
	for _, k := range []string{"state", "nonce", "code_challenge"} {
		if v := q.Get(k); len(v) < 32 || v == "evil" {
			t.Errorf("%s = %q, want a fresh random value", k, v)
		}
	}
	for _, k := range []string{"provider", "scopes", "redirect_to", "Scope", "request", "request_uri", "response_mode", "claims",
		"code_verifier", "max_age", "registration", "Login_Hint"} {
		if q.Has(k) {
			t.Errorf("%s passed to the provider", k)
		}
	}
	if again := location(t, f.do("GET", "/auth/v1/authorize?provider=acme", "")).Query(); again.Get("state") == q.Get("state") ||
		again.Get("nonce") == q.Get("nonce") || again.Get("code_challenge") == q.Get("code_challenge") {
		t.Error("a second sign-in reuses the state, nonce or challenge")
	}

	for _, c := range []struct{ name, query, msg string }{
		{"unknown provider", "provider=nope", "Unsupported provider"},
		{"no provider", "", "Unsupported provider"},
		{"email is no OAuth provider", "provider=email", "Unsupported provider"},
		{"challenge without method", "provider=acme&code_challenge=" + strings.Repeat("c", 43), "PKCE"},
	} {
		r := f.do("GET", "/auth/v1/authorize?"+c.query, "")
		if r.status != 400 || r.body["error_code"] != "validation_failed" || !strings.Contains(r.body["msg"].(string), c.msg) {
			t.Errorf("%s: %d %s", c.name, r.status, r.raw)
		}
	}
}

// TestOAuthCallback: the provider's code comes back to /callback, is
// exchanged (client_secret_basic, PKCE) for an ID token that must verify
// (signature, issuer, audience, expiry, the flow's nonce, a verified
// address), and the flow ends at redirect_to with tokens (implicit) or an
// auth code (PKCE), or with GoTrue's error parameters and nothing created.
func TestOAuthCallback(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) { testOAuthCallback(t, engine) })
	}
}

func testOAuthCallback(t *testing.T, engine storetest.Engine) {
	f := newFixture(t, engine)
	idp := newFakeIdP(t)
	f.addProvider(idp, "acme", nil, "example.org", "studio.test")
	otherKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	start := func(query string) *url.URL {
		return location(t, f.do("GET", "/auth/v1/authorize?provider=acme&redirect_to="+url.QueryEscape(origin+"/admin/next")+query, ""))
	}

	t.Run("implicit", func(t *testing.T) {
		to := f.callback(idp.grant(start(""), f.clock.Now(), "ada-at-acme", adaEmail, nil, nil))
		if to.String()[:len(origin+"/admin/next#")] != origin+"/admin/next#" {
			t.Fatalf("back at %s", to)
		}
		session := sessionOf(t, to)
		if got := f.identities(session); !slices.Contains(got, "acme:ada-at-acme") {
			t.Errorf("identities = %v", got)
		}
		if got := amr(t, session["access_token"].(string)); !slices.Equal(got, []string{"oauth"}) {
			t.Errorf("amr = %v", got)
		}
	})

	t.Run("pkce", func(t *testing.T) {
		verifier := strings.Repeat("v", 50)
		to := f.callback(idp.grant(start("&code_challenge="+s256(verifier)+"&code_challenge_method=s256"), f.clock.Now(), "ada-at-acme", adaEmail, nil, nil))
		code := to.Query().Get("code")
		if code == "" || to.Fragment != "" {
			t.Fatalf("back at %s", to)
		}
		r := f.do("POST", "/auth/v1/token?grant_type=pkce", `{"auth_code":"`+code+`","code_verifier":"`+verifier+`"}`)
		if r.status != 200 || r.body["user"].(map[string]any)["email"] != adaEmail {
			t.Fatalf("exchange = %d %s", r.status, r.raw)
		}
		if got := amr(t, r.body["access_token"].(string)); !slices.Equal(got, []string{"oauth"}) {
			t.Errorf("amr = %v", got)
		}
	})

	t.Run("state used twice", func(t *testing.T) {
		cb := idp.grant(start(""), f.clock.Now(), "ada-at-acme", adaEmail, nil, nil)
		sessionOf(t, f.callback(cb))
		to := f.callback(cb)
		if v := fragment(t, to); v.Get("error_code") != "bad_oauth_state" || !strings.HasPrefix(to.String(), origin+"/admin#") {
			t.Errorf("second use: %s", to)
		}
	})

	// Each refusal comes back to redirect_to with error parameters and no
	// token, leaves no new staff behind, and is in the audit log with the
	// provider and the reason.
	for _, c := range []struct {
		name, subject, email string
		tweak                func(map[string]any)
		key                  *ecdsa.PrivateKey
		code, audit          string
	}{
		{name: "wrong nonce", subject: "ada-at-acme", email: adaEmail, tweak: func(c map[string]any) { c["nonce"] = "not-the-flows" }, code: "bad_oauth_callback", audit: "nonce"},
		{name: "no nonce", subject: "ada-at-acme", email: adaEmail, tweak: func(c map[string]any) { delete(c, "nonce") }, code: "bad_oauth_callback", audit: "nonce"},
		{name: "wrong audience", subject: "ada-at-acme", email: adaEmail, tweak: func(c map[string]any) { c["aud"] = "another-client" }, code: "bad_oauth_callback", audit: "audience"},
		{name: "wrong issuer", subject: "ada-at-acme", email: adaEmail, tweak: func(c map[string]any) { c["iss"] = "https://evil.test" }, code: "bad_oauth_callback", audit: "id token issuer"},
		{name: "expired", subject: "ada-at-acme", email: adaEmail, tweak: func(c map[string]any) { c["exp"] = f.clock.Now().Add(-time.Minute).Unix() }, code: "bad_oauth_callback", audit: "id token expired"},
		{name: "bad signature", subject: "ada-at-acme", email: adaEmail, key: otherKey, code: "bad_oauth_callback", audit: "id token signature"},
		{name: "email not verified", subject: "ada-at-acme", email: adaEmail, tweak: func(c map[string]any) { c["email_verified"] = false }, code: "provider_email_needs_verification", audit: "not staff: provider_email_needs_verification"},
		{name: "email_verified false as a string", subject: "new-at-acme", email: "new@example.org", tweak: func(c map[string]any) { c["email_verified"] = "false" }, code: "provider_email_needs_verification", audit: "not staff: provider_email_needs_verification"},
		{name: "not staff, domain not allowed", subject: "eve-at-acme", email: "eve@elsewhere.test", code: "signup_disabled", audit: "not vouched: the address is outside the provider's domains"},
	} {
		t.Run(c.name, func(t *testing.T) {
			to := f.callback(idp.grant(start(""), f.clock.Now(), c.subject, c.email, c.tweak, c.key))
			v := fragment(t, to)
			if v.Get("error_code") != c.code || v.Get("access_token") != "" || !strings.HasPrefix(to.String(), origin+"/admin/next#") {
				t.Errorf("back at %s, want error_code %s", to, c.code)
			}
			if _, err := f.db.FindUserByEmail(context.Background(), c.email); c.email != adaEmail && !errors.Is(err, staff.ErrNotFound) {
				t.Errorf("%s was added: %v", c.email, err)
			}
			if _, err := f.db.FindIdentity(context.Background(), "acme", c.subject); c.subject != "ada-at-acme" && !errors.Is(err, staff.ErrNotFound) {
				t.Errorf("identity %s was saved: %v", c.subject, err)
			}
			if got, want := f.lastLoginFailure(), "oidc acme: "+c.audit; got != want {
				t.Errorf("audit login_failed %q, want %q", got, want)
			}
		})
	}

	// RFC 9207: a response carried here from another provider (a mix-up)
	// names that provider as its iss.
	t.Run("response from another issuer", func(t *testing.T) {
		to := f.callback(idp.grant(start(""), f.clock.Now(), "ada-at-acme", adaEmail, nil, nil) + "&iss=" + url.QueryEscape("https://evil.test"))
		if v := fragment(t, to); v.Get("error_code") != "bad_oauth_callback" || v.Get("access_token") != "" ||
			v.Get("error_description") != "OAuth callback from an issuer other than the provider acme" {
			t.Errorf("back at %s", to)
		}
		if got, want := f.lastLoginFailure(), "oidc acme: response issuer"; got != want {
			t.Errorf("audit login_failed %q, want %q", got, want)
		}
	})

	t.Run("response naming its issuer", func(t *testing.T) {
		sessionOf(t, f.callback(idp.grant(start(""), f.clock.Now(), "ada-at-acme", adaEmail, nil, nil)+"&iss="+url.QueryEscape(idp.issuer())))
	})

	t.Run("provider that always names itself", func(t *testing.T) {
		named := newFakeIdP(t)
		named.issParam = true
		f.addProvider(named, "named", nil, "example.org", "studio.test")
		begin := func() *url.URL {
			return location(t, f.do("GET", "/auth/v1/authorize?provider=named&redirect_to="+url.QueryEscape(origin+"/admin/next"), ""))
		}
		to := f.callback(named.grant(begin(), f.clock.Now(), "ada-at-named", adaEmail, nil, nil))
		if v := fragment(t, to); v.Get("error_code") != "bad_oauth_callback" || v.Get("access_token") != "" {
			t.Errorf("without iss: back at %s", to)
		}
		if got, want := f.lastLoginFailure(), "oidc named: response issuer missing"; got != want {
			t.Errorf("audit login_failed %q, want %q", got, want)
		}
		sessionOf(t, f.callback(named.grant(begin(), f.clock.Now(), "ada-at-named", adaEmail, nil, nil)+"&iss="+url.QueryEscape(named.issuer())))
	})

	t.Run("refusal in the query of a PKCE flow", func(t *testing.T) {
		to := f.callback(idp.grant(start("&code_challenge="+s256(strings.Repeat("v", 50))+"&code_challenge_method=s256"),
			f.clock.Now(), "eve-at-acme", "eve@elsewhere.test", nil, nil))
		if q := to.Query(); q.Get("error") != "access_denied" || q.Get("error_code") != "signup_disabled" || q.Get("code") != "" {
			t.Errorf("back at %s", to)
		}
	})

	t.Run("provider refused", func(t *testing.T) {
		q := start("").Query()
		to := f.callback(q.Get("redirect_uri") + "?" + url.Values{"state": {q.Get("state")}, "error": {"access_denied"}, "error_description": {"user cancelled"}}.Encode())
		// The description is encoded once, as the client decodes it.
		if v := fragment(t, to); v.Get("error") != "access_denied" || v.Get("error_description") != "The provider refused the sign-in: user cancelled" {
			t.Errorf("back at %s", to)
		}
		if got, want := f.lastLoginFailure(), "oidc acme: provider refused: access_denied"; got != want {
			t.Errorf("audit login_failed %q, want %q", got, want)
		}
	})

	t.Run("unknown state", func(t *testing.T) {
		before := len(f.loginFailures())
		to := f.callback(origin + "/auth/v1/callback?code=x&state=" + strings.Repeat("a", 43))
		if v := fragment(t, to); v.Get("error_code") != "bad_oauth_state" || to.Path != "/admin" {
			t.Errorf("back at %s", to)
		}
		// Anyone may send one: it is no sign-in of this service's, and not audited.
		if after := len(f.loginFailures()); after != before {
			t.Errorf("an unknown state was audited: %q", f.lastLoginFailure())
		}
	})

	t.Run("expired state", func(t *testing.T) {
		authURL := start("")
		f.clock.Advance(federated.FlowStateExpiry + time.Second)
		to := f.callback(idp.grant(authURL, f.clock.Now(), "ada-at-acme", adaEmail, nil, nil))
		if v := fragment(t, to); v.Get("error_code") != "bad_oauth_state" || v.Get("access_token") != "" {
			t.Errorf("back at %s", to)
		}
		if got, want := f.lastLoginFailure(), "oidc acme: state expired"; got != want {
			t.Errorf("audit login_failed %q, want %q", got, want)
		}
	})

	t.Run("domain allowed adds staff", func(t *testing.T) {
		since := f.clock.Now()
		session := sessionOf(t, f.callback(idp.grant(start(""), f.clock.Now(), "grace-at-acme", "Grace@Example.org", nil, nil)))
		u, err := f.db.FindUserByEmail(context.Background(), "grace@example.org")
		if err != nil || u.Name() != "Person grace-at-acme" {
			t.Fatalf("staff added = %+v, %v", u, err)
		}
		if got := f.identities(session); !slices.Contains(got, "acme:grace-at-acme") {
			t.Errorf("identities = %v", got)
		}
		entries, err := f.db.ListAudit(context.Background(), since.Add(-time.Second))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(entries, func(e staff.AuditEntry) bool {
			return e.Action == staff.ActionStaffAdded && e.Email == "grace@example.org" && strings.Contains(e.Detail, "acme")
		}) {
			t.Errorf("no staff_added entry for grace: %+v", entries)
		}
	})
}

// TestOAuthClientSecretPost: a provider that allows only client_secret_post
// gets the secret in the body, and the sign-in works.
func TestOAuthClientSecretPost(t *testing.T) {
	f := newFixture(t, sqlite())
	idp := newFakeIdP(t, "client_secret_post")
	f.addProvider(idp, "postonly", nil, "studio.test")
	authURL := location(t, f.do("GET", "/auth/v1/authorize?provider=postonly", ""))
	sessionOf(t, f.callback(idp.grant(authURL, f.clock.Now(), "ada-at-post", adaEmail, nil, nil)))
}

// TestOAuthLinkIdentity: a signed-in person links a provider through
// /user/identities/authorize ({url} for the official client); an identity
// that is another person's is refused at redirect_to; a person with a
// verified factor must be at aal2.
func TestOAuthLinkIdentity(t *testing.T) {
	f := newFixture(t, sqlite())
	idp := newFakeIdP(t)
	f.addProvider(idp, "acme", nil, "example.org")
	session := f.signIn()
	link := func(session map[string]any) *url.URL {
		r := f.do("GET", "/auth/v1/user/identities/authorize?provider=acme&skip_http_redirect=true&redirect_to="+url.QueryEscape(origin+"/admin/account"), "", bearer(session)...)
		if r.status != 200 {
			t.Fatalf("identities/authorize = %d %s", r.status, r.raw)
		}
		u, err := url.Parse(r.body["url"].(string))
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	if r := f.do("GET", "/auth/v1/user/identities/authorize?provider=acme", ""); r.status != 401 {
		t.Errorf("without a session = %d %s", r.status, r.raw)
	}

	// Ada links an account whose address is not hers: linking ties it to her.
	to := f.callback(idp.grant(link(session), f.clock.Now(), "ada-second", "ada.other@example.org", nil, nil))
	if got := f.identities(sessionOf(t, to)); !slices.Contains(got, "acme:ada-second") {
		t.Errorf("identities after linking = %v", got)
	}
	if _, err := f.db.FindUserByEmail(context.Background(), "ada.other@example.org"); !errors.Is(err, staff.ErrNotFound) {
		t.Errorf("linking added the address as staff: %v", err)
	}

	// Linking it again is GoTrue's refusal, not a new sign-in.
	to = f.callback(idp.grant(link(session), f.clock.Now(), "ada-second", "ada.other@example.org", nil, nil))
	if v := fragment(t, to); v.Get("error_code") != "identity_already_exists" || v.Get("error_description") != "Identity is already linked" ||
		v.Get("access_token") != "" || to.Path != "/admin/account" {
		t.Errorf("linking it again: back at %s", to)
	}
	if got, want := f.lastLoginFailure(), "oidc acme: link: identity_already_exists"; got != want {
		t.Errorf("audit login_failed %q, want %q", got, want)
	}

	// Grace signs in through the provider; Ada may not take her identity.
	sessionOf(t, f.callback(idp.grant(location(t, f.do("GET", "/auth/v1/authorize?provider=acme", "")), f.clock.Now(), "grace-at-acme", "grace@example.org", nil, nil)))
	to = f.callback(idp.grant(link(session), f.clock.Now(), "grace-at-acme", "grace@example.org", nil, nil))
	if v := fragment(t, to); v.Get("error_code") != "identity_already_exists" || v.Get("error_description") != "Identity is already linked to another user" ||
		v.Get("access_token") != "" || to.Path != "/admin/account" {
		t.Errorf("taking Grace's identity: back at %s", to)
	}

	// With a verified factor, an aal1 session may not link.
	factor, secret := f.enroll(session, "Phone")
	if r := f.verifyFactor(session, factor, f.totp(secret, 0)); r.status != 200 {
		t.Fatalf("verify factor = %d %s", r.status, r.raw)
	}
	aal1Session := f.signIn()
	if r := f.do("GET", "/auth/v1/user/identities/authorize?provider=acme&skip_http_redirect=true", "", bearer(aal1Session)...); r.status != 403 || r.body["error_code"] != "insufficient_aal" {
		t.Errorf("aal1 session with a verified factor = %d %s", r.status, r.raw)
	}
}

// idTokenNonce is a raw nonce and what an ID token carries of it.
func idTokenNonce(raw string) string {
	sum := sha256.Sum256([]byte(raw))
	return hex.EncodeToString(sum[:])
}

// TestIDTokenGrant: grant_type=id_token signs in with an ID token of a
// configured provider, verified as the callback's are; its nonce is the
// SHA-256 hex of the one sent, and both or neither must be there (GoTrue's
// rule); with link_identity and an access token it links to the caller.
func TestIDTokenGrant(t *testing.T) {
	f := newFixture(t, sqlite())
	idp := newFakeIdP(t)
	f.addProvider(idp, "acme", nil, "studio.test")
	grant := func(body string, headers ...string) response {
		return f.do("POST", "/auth/v1/token?grant_type=id_token", body, headers...)
	}
	token := func(tweak func(map[string]any)) string {
		c := idp.claims(f.clock.Now(), "ada-at-acme", adaEmail, idTokenNonce("raw-nonce"))
		if tweak != nil {
			tweak(c)
		}
		return idp.sign(c)
	}

	r := grant(`{"provider":"acme","id_token":"` + token(nil) + `","nonce":"raw-nonce"}`)
	if r.status != 200 || r.body["user"].(map[string]any)["email"] != adaEmail {
		t.Fatalf("good token = %d %s", r.status, r.raw)
	}
	if got := amr(t, r.body["access_token"].(string)); !slices.Equal(got, []string{"oauth"}) {
		t.Errorf("amr = %v", got)
	}
	noNonce := token(func(c map[string]any) { delete(c, "nonce") })
	if r := grant(`{"provider":"acme","id_token":"` + noNonce + `"}`); r.status != 200 {
		t.Errorf("token and request without nonce = %d %s", r.status, r.raw)
	}
	withAtHash := token(func(c map[string]any) { c["at_hash"] = atHash("the-access-token") })
	if r := grant(`{"provider":"acme","id_token":"` + withAtHash + `","nonce":"raw-nonce","access_token":"the-access-token"}`); r.status != 200 {
		t.Errorf("token with its access token = %d %s", r.status, r.raw)
	}

	// Each refusal of a token of the provider is in the audit log with the
	// provider and the reason; a request naming no provider of the service
	// is not.
	for _, c := range []struct{ name, body, msg, audit string }{
		{"bad nonce", `{"provider":"acme","id_token":"` + token(nil) + `","nonce":"another-nonce"}`, "Nonces mismatch", "nonce"},
		{"raw nonce in the token", `{"provider":"acme","id_token":"` + token(func(c map[string]any) { c["nonce"] = "raw-nonce" }) + `","nonce":"raw-nonce"}`, "Nonces mismatch", "nonce"},
		{"nonce in the token only", `{"provider":"acme","id_token":"` + token(nil) + `"}`, "should either both exist or not", "nonce"},
		{"nonce in the request only", `{"provider":"acme","id_token":"` + noNonce + `","nonce":"raw-nonce"}`, "should either both exist or not", "nonce"},
		{"wrong audience", `{"provider":"acme","id_token":"` + token(func(c map[string]any) { c["aud"] = "another-client" }) + `","nonce":"raw-nonce"}`, "Unacceptable audience", "audience"},
		{"expired", `{"provider":"acme","id_token":"` + token(func(c map[string]any) { c["exp"] = f.clock.Now().Add(-time.Minute).Unix() }) + `","nonce":"raw-nonce"}`, "Bad ID token", "id token expired"},
		{"another access token", `{"provider":"acme","id_token":"` + withAtHash + `","nonce":"raw-nonce","access_token":"another"}`, "Bad ID token", "id token at_hash"},
		{"unknown provider", `{"provider":"nope","id_token":"` + token(nil) + `","nonce":"raw-nonce"}`, "Unsupported provider", ""},
		{"no token", `{"provider":"acme"}`, "id_token required", ""},
		{"link without a session", `{"provider":"acme","id_token":"` + token(nil) + `","nonce":"raw-nonce","link_identity":true}`, "Linking requires", ""},
	} {
		before := len(f.loginFailures())
		r := grant(c.body)
		if r.status != 400 || r.body["access_token"] != nil || !strings.Contains(r.raw, c.msg) {
			t.Errorf("%s = %d %s", c.name, r.status, r.raw)
		}
		switch got := f.loginFailures(); {
		case c.audit == "" && len(got) != before:
			t.Errorf("%s: audited %q", c.name, got[len(got)-1])
		case c.audit != "" && f.lastLoginFailure() != "oidc acme: "+c.audit:
			t.Errorf("%s: audit login_failed %q, want %q", c.name, f.lastLoginFailure(), "oidc acme: "+c.audit)
		}
	}
	stranger := idp.sign(idp.claims(f.clock.Now(), "eve-at-acme", "eve@elsewhere.test", ""))
	if r := grant(`{"provider":"acme","id_token":"` + stranger + `"}`); r.status != 422 || r.body["error_code"] != "signup_disabled" {
		t.Errorf("not staff = %d %s", r.status, r.raw)
	}
	if got, want := f.lastLoginFailure(), "oidc acme: not vouched: the address is outside the provider's domains"; got != want {
		t.Errorf("not staff: audit login_failed %q, want %q", got, want)
	}

	session := f.signIn()
	second := idp.sign(idp.claims(f.clock.Now(), "ada-second", "ada.second@elsewhere.test", ""))
	r = grant(`{"provider":"acme","id_token":"`+second+`","link_identity":true}`, bearer(session)...)
	if r.status != 200 || r.body["user"].(map[string]any)["email"] != adaEmail {
		t.Fatalf("link = %d %s", r.status, r.raw)
	}
	if got := f.identities(session); !slices.Contains(got, "acme:ada-second") {
		t.Errorf("identities after linking = %v", got)
	}
	// Linking it again (with another token: one is used once) is GoTrue's
	// refusal, not a new session.
	againClaims := idp.claims(f.clock.Now(), "ada-second", "ada.second@elsewhere.test", "")
	againClaims["jti"] = "again"
	secondAgain := idp.sign(againClaims)
	r = grant(`{"provider":"acme","id_token":"`+secondAgain+`","link_identity":true}`, bearer(session)...)
	if r.status != 422 || r.body["error_code"] != "identity_already_exists" || r.body["msg"] != "Identity is already linked" || r.body["access_token"] != nil {
		t.Errorf("link again = %d %s", r.status, r.raw)
	}

	// With a verified factor, an aal1 session may not link.
	factor, secret := f.enroll(session, "Phone")
	if r := f.verifyFactor(session, factor, f.totp(secret, 0)); r.status != 200 {
		t.Fatalf("verify factor = %d %s", r.status, r.raw)
	}
	third := idp.sign(idp.claims(f.clock.Now(), "ada-third", "ada.third@elsewhere.test", ""))
	r = grant(`{"provider":"acme","id_token":"`+third+`","link_identity":true}`, bearer(f.signIn())...)
	if r.status != 403 || r.body["error_code"] != "insufficient_aal" {
		t.Errorf("link from an aal1 session with a verified factor = %d %s", r.status, r.raw)
	}
}

// TestNewOIDCProvider: what "studio oauth add" refuses before it stores
// anything.
func TestNewOIDCProvider(t *testing.T) {
	idp := newFakeIdP(t)
	key, err := secretkey.NewRandomSecretKey()
	if err != nil {
		t.Fatal(err)
	}
	good := federated.OIDCProviderSpec{Name: "acme", Issuer: idp.issuer(), ClientID: "c", ClientSecret: "s", Domains: []string{"@Example.org"}}
	p, err := federated.NewOIDCProvider(context.Background(), good, key, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(p.Config), `"s"`) || !slices.Equal(p.Domains, []string{"example.org"}) {
		t.Errorf("provider = %s %v", p.Config, p.Domains)
	}
	for _, c := range []struct {
		name   string
		change func(*federated.OIDCProviderSpec)
		msg    string
	}{
		{"name email", func(s *federated.OIDCProviderSpec) { s.Name = "email" }, "provider name"},
		{"name sso:", func(s *federated.OIDCProviderSpec) { s.Name = "sso:x" }, "provider name"},
		{"name upper case", func(s *federated.OIDCProviderSpec) { s.Name = "Acme" }, "provider name"},
		{"http issuer", func(s *federated.OIDCProviderSpec) { s.Issuer = "http://idp.example.org" }, "https"},
		{"issuer that is not the provider's", func(s *federated.OIDCProviderSpec) { s.Issuer = idp.issuer() + "/" }, "did not match"},
		{"no discovery", func(s *federated.OIDCProviderSpec) { s.Issuer = idp.issuer() + "/nothing" }, "discovery"},
		{"no secret", func(s *federated.OIDCProviderSpec) { s.ClientSecret = "" }, "client secret"},
		{"bad domain", func(s *federated.OIDCProviderSpec) { s.Domains = []string{"ada@example.org"} }, "domain"},
	} {
		spec := good
		c.change(&spec)
		if _, err := federated.NewOIDCProvider(context.Background(), spec, key, time.Now()); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.msg)
		}
	}
	huge := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"issuer":"` + strings.Repeat("x", 2<<20) + `"}`))
	}))
	defer huge.Close()
	spec := good
	spec.Issuer = huge.URL
	if _, err := federated.NewOIDCProvider(context.Background(), spec, key, time.Now()); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("a discovery document over 1 MiB: %v", err)
	}
	only := newFakeIdP(t, "private_key_jwt")
	spec = good
	spec.Issuer = only.issuer()
	if _, err := federated.NewOIDCProvider(context.Background(), spec, key, time.Now()); err == nil || !strings.Contains(err.Error(), "client_secret_basic") {
		t.Errorf("private_key_jwt only: %v", err)
	}
}

// TestIDTokenReplay: an ID token signs in once, on every server of the
// store: a second grant_type=id_token with it (the same token, or its
// signature encoded another way), here or at another server, is GoTrue's
// 400 and audited, with no session, until the token expires.
func TestIDTokenReplay(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			f := newFixture(t, engine)
			idp := newFakeIdP(t)
			f.addProvider(idp, "acme", nil, "studio.test")
			other := auth.New(f.db, auth.Config{SiteOrigin: origin, MailFrom: "Studio <site@studio.test>", Now: f.clock.Now, MFAKey: f.secrets})
			grant := func(svc *auth.Service, token, nonce string) response {
				body := `{"provider":"acme","id_token":"` + token + `"`
				if nonce != "" {
					body += `,"nonce":"` + nonce + `"`
				}
				r := httptest.NewRequest("POST", "/auth/v1/token?grant_type=id_token", strings.NewReader(body+"}"))
				r.Header.Set("Content-Type", "application/json")
				w := httptest.NewRecorder()
				svc.ServeHTTP(w, r)
				out := response{status: w.Code, header: w.Header(), raw: w.Body.String()}
				_ = json.Unmarshal(w.Body.Bytes(), &out.body)
				return out
			}
			replayed := func(name string, r response) {
				t.Helper()
				if r.status != 400 || r.body["error_code"] != "validation_failed" || r.body["msg"] != "ID token has already been used" || r.body["access_token"] != nil {
					t.Errorf("%s = %d %s", name, r.status, r.raw)
				}
				if got, want := f.lastLoginFailure(), "oidc acme: id token replayed"; got != want {
					t.Errorf("%s: audit login_failed %q, want %q", name, got, want)
				}
			}

			// Without a nonce, nothing else binds the token to one sign-in.
			bare := idp.sign(idp.claims(f.clock.Now(), "ada-at-acme", adaEmail, ""))
			if r := grant(f.svc, bare, ""); r.status != 200 {
				t.Fatalf("first use = %d %s", r.status, r.raw)
			}
			replayed("the same token again", grant(f.svc, bare, ""))
			replayed("the same token at another server", grant(other, bare, ""))
			// The signature's last character carries 4 bits that decode to
			// nothing: another string, the same token.
			last := strings.LastIndex(bare, ".")
			sig := []byte(bare[last+1:])
			const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
			v := strings.IndexByte(alphabet, sig[len(sig)-1])
			sig[len(sig)-1] = alphabet[v&^0xf|(v+1)&0xf]
			replayed("the same token, its signature encoded another way", grant(f.svc, bare[:last+1]+string(sig), ""))

			// With a nonce too.
			withNonce := idp.sign(idp.claims(f.clock.Now(), "ada-at-acme", adaEmail, idTokenNonce("raw")))
			if r := grant(other, withNonce, "raw"); r.status != 200 {
				t.Fatalf("first use of a token with a nonce = %d %s", r.status, r.raw)
			}
			replayed("a token with a nonce again", grant(f.svc, withNonce, "raw"))

			// Another token of the same person signs in.
			f.clock.Advance(time.Second)
			if r := grant(f.svc, idp.sign(idp.claims(f.clock.Now(), "ada-at-acme", adaEmail, "")), ""); r.status != 200 {
				t.Errorf("a new token = %d %s", r.status, r.raw)
			}
			// Once it has expired, it is refused as expired.
			f.clock.Advance(10 * time.Minute)
			if r := grant(f.svc, bare, ""); r.status != 400 || r.body["msg"] != "Bad ID token" {
				t.Errorf("the used token once expired = %d %s", r.status, r.raw)
			}
		})
	}
}
