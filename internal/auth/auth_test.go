package auth_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"

	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/go-cmp/cmp"

	"studio/internal/api"
	"studio/internal/auth"
	"studio/internal/ratelimit"
	"studio/internal/secretkey"
	"studio/internal/staff"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

const (
	origin   = "https://studio.test"
	adaEmail = "ada@studio.test"
)

// clock is a settable time for the service.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// fixture is a service on a fresh store with one member of staff, Ada.
type fixture struct {
	t     testing.TB
	db    *store.DB
	svc   *auth.Service
	clock *clock
	ada   staff.User
	// secrets is the service's secret key (Config.MFAKey).
	secrets *secretkey.SecretKey
	// remoteAddr, when set, is the client address of the requests.
	remoteAddr string
	mu         sync.Mutex // for benchmarks that sign in from several goroutines
}

func newFixture(t testing.TB, engine storetest.Engine, tweak ...func(*auth.Config)) *fixture {
	t.Helper()
	db := engine.New(t)
	c := &clock{t: time.Now().UTC().Truncate(time.Second)}
	ada := staff.User{ID: "6f1c2f4e-8d1a-4a57-9a0e-5b8f0b1d2c3e", Email: adaEmail, UserMetadata: map[string]any{"name": "Ada"},
		CreatedAt: c.Now(), UpdatedAt: c.Now()}
	if err := db.CreateUser(context.Background(), ada, staff.AuditEntry{}); err != nil {
		t.Fatal(err)
	}
	cfg := auth.Config{SiteOrigin: origin, MailFrom: "Studio <site@studio.test>", Now: c.Now,
		AllowedOrigins: []string{"https://console.test"}}
	for _, f := range tweak {
		f(&cfg)
	}
	if cfg.MFAKey == nil {
		key, err := secretkey.NewRandomSecretKey()
		if err != nil {
			t.Fatal(err)
		}
		cfg.MFAKey = key
	}
	return &fixture{t: t, db: db, svc: auth.New(db, cfg), clock: c, ada: ada, secrets: cfg.MFAKey}
}

// response is an answer of the service.
type response struct {
	status int
	header http.Header
	body   map[string]any
	raw    string
}

func (f *fixture) do(method, path, body string, headers ...string) response {
	f.t.Helper()
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		r.Header.Set(headers[i], headers[i+1])
	}
	if f.remoteAddr != "" {
		r.RemoteAddr = f.remoteAddr
	}
	w := httptest.NewRecorder()
	f.svc.ServeHTTP(w, r)
	resp := response{status: w.Code, header: w.Header(), raw: w.Body.String()}
	_ = json.Unmarshal(w.Body.Bytes(), &resp.body)
	return resp
}

// mail returns the body of the next queued sign-in mail, or "".
func (f *fixture) mail() string {
	f.t.Helper()
	f.svc.Wait() // /otp answers before it mails
	queued, err := f.db.ClaimEmails(context.Background(), f.clock.Now().Add(time.Hour), time.Minute, 10)
	if err != nil {
		f.t.Fatal(err)
	}
	var out []string
	for _, q := range queued {
		if err := q.Email.OpenBody(f.secrets); err != nil {
			f.t.Fatal(err)
		}
		out = append(out, q.Email.Body)
		_ = f.db.MarkEmailSent(context.Background(), q.ID, f.clock.Now())
	}
	return strings.Join(out, "\n---\n")
}

var (
	codeInMail = regexp.MustCompile(`\n    (\d{6})\n`)
	hashInMail = regexp.MustCompile(`token_hash=([A-Za-z0-9_-]+)&type=magiclink`)
)

// askCode asks for a code for email and returns the code and token_hash of
// the mail it sent.
func (f *fixture) askCode(email string) (code, tokenHash string) {
	f.t.Helper()
	if r := f.do("POST", "/auth/v1/otp", `{"email":"`+email+`","create_user":true}`); r.status != 200 || r.raw != "{}\n" {
		f.t.Fatalf("otp = %d %s", r.status, r.raw)
	}
	body := f.mail()
	c, h := codeInMail.FindStringSubmatch(body), hashInMail.FindStringSubmatch(body)
	if c == nil || h == nil {
		f.t.Fatalf("no code and link in the mail:\n%s", body)
	}
	return c[1], h[1]
}

// signIn signs Ada in with a mailed code and returns the session answer.
func (f *fixture) signIn() map[string]any {
	f.t.Helper()
	code, _ := f.askCode(adaEmail)
	r := f.do("POST", "/auth/v1/verify", `{"email":"ada@studio.test","token":"`+code+`","type":"email"}`)
	if r.status != 200 {
		f.t.Fatalf("verify = %d %s", r.status, r.raw)
	}
	f.clock.Advance(auth.EmailInterval) // room for the next mail
	return r.body
}

func bearer(session map[string]any) []string {
	return []string{"Authorization", "Bearer " + session["access_token"].(string)}
}

func sqlite() storetest.Engine { return storetest.Engines()[0] }

// TestBadRequests: every bad input gets GoTrue's 4xx and error code.
func TestBadRequests(t *testing.T) {
	f := newFixture(t, sqlite())
	keys, err := auth.LoadKeys(context.Background(), f.db, f.secrets, f.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	anon, err := keys.AnonKey()
	if err != nil {
		t.Fatal(err)
	}
	foreign := signWithNewKey(t, jwt.MapClaims{"sub": f.ada.ID, "aud": "authenticated", "exp": f.clock.Now().Add(time.Hour).Unix()})
	tests := []struct {
		name         string
		method, path string
		body         string
		headers      []string
		wantStatus   int
		wantCode     string
	}{
		{"not JSON", "POST", "/auth/v1/otp", `{"email":`, nil, 400, "bad_json"},
		{"wrong type", "POST", "/auth/v1/otp", `{"email":42}`, nil, 400, "bad_json"},
		{"JSON array", "POST", "/auth/v1/verify", `[1,2]`, nil, 400, "bad_json"},
		{"too large", "POST", "/auth/v1/otp", `{"email":"` + strings.Repeat("a", api.MaxBodyBytes) + `"}`, nil, 413, "request_entity_too_large"},
		{"otp without email", "POST", "/auth/v1/otp", `{}`, nil, 400, "validation_failed"},
		{"otp bad email", "POST", "/auth/v1/otp", `{"email":"not an address"}`, nil, 400, "validation_failed"},
		{"otp with a name", "POST", "/auth/v1/otp", `{"email":"Ada <ada@studio.test>"}`, nil, 400, "validation_failed"},
		{"otp phone", "POST", "/auth/v1/otp", `{"phone":"+15555550100"}`, nil, 400, "phone_provider_disabled"},
		{"otp email and phone", "POST", "/auth/v1/otp", `{"email":"a@b.test","phone":"+1"}`, nil, 400, "validation_failed"},
		{"otp PKCE without a method", "POST", "/auth/v1/otp", `{"email":"a@b.test","code_challenge":"x"}`, nil, 400, "validation_failed"},
		{"otp PKCE with an unknown method", "POST", "/auth/v1/otp", `{"email":"a@b.test","code_challenge":"x","code_challenge_method":"md5"}`, nil, 400, "validation_failed"},
		{"pkce grant without a verifier", "POST", "/auth/v1/token?grant_type=pkce", `{"auth_code":"x"}`, nil, 400, "validation_failed"},
		{"pkce grant with an unknown code", "POST", "/auth/v1/token?grant_type=pkce", `{"auth_code":"x","code_verifier":"y"}`, nil, 404, "flow_state_not_found"},
		{"verify without type", "POST", "/auth/v1/verify", `{"email":"a@b.test","token":"123456"}`, nil, 400, "validation_failed"},
		{"verify signup type", "POST", "/auth/v1/verify", `{"type":"signup","email":"a@b.test","token":"123456"}`, nil, 400, "validation_failed"},
		{"verify nothing to verify", "POST", "/auth/v1/verify", `{"type":"email","email":"a@b.test"}`, nil, 400, "validation_failed"},
		{"verify token without email", "POST", "/auth/v1/verify", `{"type":"email","token":"123456"}`, nil, 400, "validation_failed"},
		{"verify token_hash with email", "POST", "/auth/v1/verify", `{"type":"email","token_hash":"x","email":"a@b.test"}`, nil, 400, "validation_failed"},
		{"verify bad email", "POST", "/auth/v1/verify", `{"type":"email","token":"1","email":"@"}`, nil, 400, "validation_failed"},
		{"verify wrong code", "POST", "/auth/v1/verify", `{"type":"email","token":"000000","email":"ada@studio.test"}`, nil, 403, "otp_expired"},
		{"verify not staff", "POST", "/auth/v1/verify", `{"type":"email","token":"000000","email":"eve@studio.test"}`, nil, 403, "otp_expired"},
		{"verify huge token", "POST", "/auth/v1/verify", `{"type":"email","token":"` + strings.Repeat("9", 1000) + `","email":"ada@studio.test"}`, nil, 403, "otp_expired"},
		{"verify unknown link", "POST", "/auth/v1/verify", `{"type":"magiclink","token_hash":"nope"}`, nil, 403, "otp_expired"},
		{"verify recovery", "POST", "/auth/v1/verify", `{"type":"recovery","token_hash":"nope"}`, nil, 403, "otp_expired"},
		{"recover without email", "POST", "/auth/v1/recover", `{}`, nil, 422, "validation_failed"},
		{"recover bad email", "POST", "/auth/v1/recover", `{"email":"x"}`, nil, 400, "validation_failed"},
		{"resend without type", "POST", "/auth/v1/resend", `{"email":"a@b.test"}`, nil, 400, "validation_failed"},
		{"resend sms", "POST", "/auth/v1/resend", `{"type":"sms","phone":"+1555"}`, nil, 400, "phone_provider_disabled"},
		{"resend bad email", "POST", "/auth/v1/resend", `{"type":"signup","email":"nope"}`, nil, 400, "validation_failed"},
		{"no grant type", "POST", "/auth/v1/token", `{}`, nil, 400, "invalid_credentials"},
		{"password grant", "POST", "/auth/v1/token?grant_type=password", `{"email":"a@b.test","password":"x"}`, nil, 400, "invalid_credentials"},
		{"id_token grant", "POST", "/auth/v1/token?grant_type=id_token", `{}`, nil, 400, "validation_failed"},
		{"pkce grant of a huge code", "POST", "/auth/v1/token?grant_type=pkce", `{"auth_code":"` + strings.Repeat("x", 5000) + `","code_verifier":"y"}`, nil, 404, "flow_state_not_found"},
		{"refresh without token", "POST", "/auth/v1/token?grant_type=refresh_token", `{}`, nil, 400, "validation_failed"},
		{"refresh token of wrong type", "POST", "/auth/v1/token?grant_type=refresh_token", `{"refresh_token":1}`, nil, 400, "bad_json"},
		{"unknown refresh token", "POST", "/auth/v1/token?grant_type=refresh_token", `{"refresh_token":"abc"}`, nil, 400, "refresh_token_not_found"},
		{"huge refresh token", "POST", "/auth/v1/token?grant_type=refresh_token", `{"refresh_token":"` + strings.Repeat("x", 5000) + `"}`, nil, 400, "refresh_token_not_found"},
		{"user without token", "GET", "/auth/v1/user", "", nil, 401, "no_authorization"},
		{"user with a malformed header", "GET", "/auth/v1/user", "", []string{"Authorization", "Basic abc"}, 401, "no_authorization"},
		{"user with garbage", "GET", "/auth/v1/user", "", []string{"Authorization", "Bearer not.a.jwt"}, 403, "bad_jwt"},
		{"user with the anon key", "GET", "/auth/v1/user", "", []string{"Authorization", "Bearer " + anon}, 403, "bad_jwt"},
		{"user with another key's token", "GET", "/auth/v1/user", "", []string{"Authorization", "Bearer " + foreign}, 403, "bad_jwt"},
		{"logout without token", "POST", "/auth/v1/logout", "", nil, 401, "no_authorization"},
		{"wrong method", "GET", "/auth/v1/otp", "", nil, 405, "method_not_allowed"},
		{"sign-up is not offered", "POST", "/auth/v1/signup", `{}`, nil, 404, "not_found"},
		{"unknown path", "GET", "/auth/v1/nope", "", nil, 404, "not_found"},
		{"preflight from another site", "OPTIONS", "/auth/v1/otp", "", []string{"Origin", "https://evil.test"}, 403, "validation_failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := f.do(tt.method, tt.path, tt.body, tt.headers...)
			if r.status != tt.wantStatus || r.body["error_code"] != tt.wantCode || r.header.Get("x-sb-error-code") != tt.wantCode {
				t.Errorf("= %d %s, want %d %s", r.status, r.raw, tt.wantStatus, tt.wantCode)
			}
			if msg, _ := r.body["msg"].(string); msg == "" {
				t.Errorf("no message: %s", r.raw)
			}
		})
	}
}

// signWithNewKey signs claims with a key the service does not have.
func signWithNewKey(t *testing.T, claims jwt.Claims) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tok := jwt.NewWithClaims(jwt.SigningMethodES256, claims)
	tok.Header["kid"] = "someone-elses"
	signed, err := tok.SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return signed
}

// TestSignInFlow: a code from the mail signs in; the access token verifies
// against the JWKS and carries GoTrue's claims; the user is as GoTrue shows
// one.
func TestSignInFlow(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			f := newFixture(t, engine)
			session := f.signIn()
			if session["token_type"] != "bearer" || session["expires_in"] != 3600.0 || session["refresh_token"] == "" {
				t.Errorf("session = %v", session)
			}
			jwks := f.do("GET", "/auth/v1/.well-known/jwks.json", "")
			if jwks.header.Get("Cache-Control") != "public, max-age=600" {
				t.Errorf("JWKS Cache-Control = %q", jwks.header.Get("Cache-Control"))
			}
			claims := verifyWithJWKS(t, session["access_token"].(string), jwks.raw)
			sessionID, _ := claims["session_id"].(string)
			for k, want := range map[string]any{
				"iss": origin + "/auth/v1", "sub": f.ada.ID, "aud": "authenticated", "email": adaEmail, "phone": "",
				"role": "authenticated", "aal": "aal1", "is_anonymous": false,
				"app_metadata":  map[string]any{"provider": "email", "providers": []any{"email"}},
				"user_metadata": map[string]any{"name": "Ada"},
			} {
				if diff := cmp.Diff(want, claims[k]); diff != "" {
					t.Errorf("claim %s (-want +got):\n%s", k, diff)
				}
			}
			if exp := claims["exp"].(float64); exp != session["expires_at"].(float64) || sessionID == "" {
				t.Errorf("exp %v, expires_at %v, session_id %q", exp, session["expires_at"], sessionID)
			}
			if amr := claims["amr"].([]any); len(amr) != 1 || amr[0].(map[string]any)["method"] != "otp" {
				t.Errorf("amr = %v", amr)
			}

			user := f.do("GET", "/auth/v1/user", "", bearer(session)...)
			if user.status != 200 {
				t.Fatalf("GET /user = %d %s", user.status, user.raw)
			}
			var keysGot []string
			for k := range user.body {
				keysGot = append(keysGot, k)
			}
			wantKeys := []string{"app_metadata", "aud", "created_at", "email", "email_confirmed_at", "id", "identities",
				"is_anonymous", "last_sign_in_at", "phone", "role", "updated_at", "user_metadata"}
			slices.Sort(keysGot)
			if diff := cmp.Diff(wantKeys, keysGot); diff != "" {
				t.Errorf("user fields (-want +got):\n%s", diff)
			}
			if user.body["id"] != f.ada.ID || user.body["email_confirmed_at"] == nil || user.body["role"] != "authenticated" {
				t.Errorf("user = %s", user.raw)
			}
			if diff := cmp.Diff(session["user"], user.body); diff != "" {
				t.Errorf("user of the session and of GET /user differ (-session +user):\n%s", diff)
			}
		})
	}
}

// verifyWithJWKS checks token's ES256 signature with the JWKS key its kid
// names, as the client's getClaims does, and returns its claims.
func verifyWithJWKS(t *testing.T, token, jwksJSON string) map[string]any {
	t.Helper()
	var set struct {
		Keys []struct{ Kid, Kty, Crv, Alg, X, Y string } `json:"keys"`
	}
	if err := json.Unmarshal([]byte(jwksJSON), &set); err != nil || len(set.Keys) == 0 {
		t.Fatalf("JWKS %s: %v", jwksJSON, err)
	}
	claims := jwt.MapClaims{}
	_, err := jwt.ParseWithClaims(token, claims, func(tok *jwt.Token) (any, error) {
		for _, k := range set.Keys {
			if k.Kid == tok.Header["kid"] && k.Kty == "EC" && k.Crv == "P-256" && k.Alg == "ES256" {
				x, _ := base64.RawURLEncoding.DecodeString(k.X)
				y, _ := base64.RawURLEncoding.DecodeString(k.Y)
				return &ecdsa.PublicKey{Curve: elliptic.P256(), X: new(big.Int).SetBytes(x), Y: new(big.Int).SetBytes(y)}, nil
			}
		}
		return nil, jwt.ErrTokenUnverifiable
	}, jwt.WithValidMethods([]string{"ES256"}), jwt.WithoutClaimsValidation())
	if err != nil {
		t.Fatalf("token does not verify with the JWKS: %v", err)
	}
	return claims
}

// TestRefreshRotation: a refresh token rotates; used again within the
// grace window it still works, after it the whole session ends at once.
func TestRefreshRotation(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			f := newFixture(t, engine)
			session := f.signIn()
			refresh := func(token string) response {
				return f.do("POST", "/auth/v1/token?grant_type=refresh_token", `{"refresh_token":"`+token+`"}`)
			}
			first := session["refresh_token"].(string)
			r := refresh(first)
			if r.status != 200 || r.body["refresh_token"] == first || r.body["access_token"] == "" {
				t.Fatalf("refresh = %d %s", r.status, r.raw)
			}
			second := r.body["refresh_token"].(string)
			f.clock.Advance(5 * time.Second)
			if r := refresh(first); r.status != 200 {
				t.Fatalf("reuse within the grace window = %d %s", r.status, r.raw)
			}
			if r := refresh(second); r.status != 200 {
				t.Fatalf("the second token = %d %s", r.status, r.raw)
			}
			f.clock.Advance(auth.RefreshReuseGrace)
			if r := refresh(first); r.status != 400 || r.body["error_code"] != "refresh_token_already_used" {
				t.Fatalf("reuse after the grace window = %d %s", r.status, r.raw)
			}
			if r := f.do("GET", "/auth/v1/user", "", bearer(session)...); r.status != 403 || r.body["error_code"] != "session_not_found" {
				t.Errorf("access token of the revoked session = %d %s", r.status, r.raw)
			}
		})
	}
}

// TestOTPDoesNotTellWhoIsStaff: staff and others get the same answers,
// including the per-address limit; only staff get mail.
func TestOTPDoesNotTellWhoIsStaff(t *testing.T) {
	f := newFixture(t, sqlite())
	for _, email := range []string{adaEmail, "eve@studio.test"} {
		first := f.do("POST", "/auth/v1/otp", `{"email":"`+email+`"}`)
		second := f.do("POST", "/auth/v1/otp", `{"email":"`+email+`"}`)
		if first.status != 200 || first.raw != "{}\n" {
			t.Errorf("%s first = %d %s", email, first.status, first.raw)
		}
		if second.status != 429 || second.body["error_code"] != "over_email_send_rate_limit" ||
			second.body["msg"] != "For security purposes, you can only request this after 60 seconds." {
			t.Errorf("%s second = %d %s", email, second.status, second.raw)
		}
	}
	mails := f.mail()
	if strings.Count(mails, "Your code to sign in") != 1 || !strings.Contains(mails, "studio.test") {
		t.Errorf("mails = %q, want one, to Ada", mails)
	}
}

// TestCodeRules: a code works once, not after five wrong tries, and a link
// works once.
func TestCodeRules(t *testing.T) {
	f := newFixture(t, sqlite())
	verify := func(body string) response { return f.do("POST", "/auth/v1/verify", body) }
	code, tokenHash := f.askCode(adaEmail)
	for range staff.MaxCodeTries {
		if r := verify(`{"type":"email","email":"ada@studio.test","token":"x"}`); r.status != 403 {
			t.Fatalf("wrong code = %d", r.status)
		}
	}
	if r := verify(`{"type":"email","email":"ada@studio.test","token":"` + code + `"}`); r.status != 403 || r.body["error_code"] != "otp_expired" {
		t.Errorf("right code after five wrong ones = %d %s", r.status, r.raw)
	}
	// The fifth wrong try killed the mail's link as well.
	if r := verify(`{"type":"magiclink","token_hash":"` + tokenHash + `"}`); r.status != 403 {
		t.Errorf("link of a dead code = %d %s", r.status, r.raw)
	}

	f.clock.Advance(auth.EmailInterval)
	_, tokenHash = f.askCode("ADA@studio.test ")
	if r := verify(`{"type":"recovery","token_hash":"` + tokenHash + `"}`); r.status != 403 {
		t.Errorf("sign-in link as type recovery = %d %s", r.status, r.raw)
	}
	if r := verify(`{"type":"magiclink","token_hash":"` + tokenHash + `"}`); r.status != 200 {
		t.Fatalf("link = %d %s", r.status, r.raw)
	}
	if r := verify(`{"type":"magiclink","token_hash":"` + tokenHash + `"}`); r.status != 403 || r.body["msg"] != "Email link is invalid or has expired" {
		t.Errorf("link used twice = %d %s", r.status, r.raw)
	}

	f.clock.Advance(auth.EmailInterval)
	code, _ = f.askCode(adaEmail)
	f.clock.Advance(10*time.Minute + time.Second)
	if r := verify(`{"type":"email","email":"ada@studio.test","token":"` + code + `"}`); r.status != 403 {
		t.Errorf("expired code = %d %s", r.status, r.raw)
	}
}

// TestLogoutScopes: sign-out ends the sessions of its scope at once; their
// access tokens stop working immediately.
func TestLogoutScopes(t *testing.T) {
	tests := []struct {
		scope    string
		wantLeft []bool // of sessions a, b, c; b signs out
	}{
		{"", []bool{false, false, false}},
		{"global", []bool{false, false, false}},
		{"local", []bool{true, false, true}},
		{"others", []bool{false, true, false}},
	}
	for _, tt := range tests {
		t.Run("scope "+tt.scope, func(t *testing.T) {
			f := newFixture(t, sqlite())
			sessions := []map[string]any{f.signIn(), f.signIn(), f.signIn()}
			if r := f.do("POST", "/auth/v1/logout?scope=everything", "", bearer(sessions[1])...); r.status != 400 || r.body["error_code"] != "validation_failed" {
				t.Errorf("bad scope = %d %s", r.status, r.raw)
			}
			path := "/auth/v1/logout"
			if tt.scope != "" {
				path += "?scope=" + tt.scope
			}
			if r := f.do("POST", path, "", bearer(sessions[1])...); r.status != 204 || r.raw != "" {
				t.Fatalf("logout = %d %s", r.status, r.raw)
			}
			for i, s := range sessions {
				r := f.do("GET", "/auth/v1/user", "", bearer(s)...)
				if left := r.status == 200; left != tt.wantLeft[i] {
					t.Errorf("session %d: GET /user = %d %s", i, r.status, r.raw)
				}
				if r.status != 200 && r.body["error_code"] != "session_not_found" {
					t.Errorf("session %d: %s, want session_not_found", i, r.raw)
				}
			}
		})
	}
}

// TestRemovedStaffLoseAccessAtOnce: removing a person ends their sessions.
func TestRemovedStaffLoseAccessAtOnce(t *testing.T) {
	f := newFixture(t, sqlite())
	session := f.signIn()
	if _, err := f.db.RemoveUser(context.Background(), adaEmail, staff.AuditEntry{}); err != nil {
		t.Fatal(err)
	}
	if r := f.do("GET", "/auth/v1/user", "", bearer(session)...); r.status != 403 || r.body["error_code"] != "session_not_found" {
		t.Errorf("GET /user after removal = %d %s", r.status, r.raw)
	}
	r := f.do("POST", "/auth/v1/token?grant_type=refresh_token", `{"refresh_token":"`+session["refresh_token"].(string)+`"}`)
	if r.status != 400 || r.body["error_code"] != "refresh_token_not_found" {
		t.Errorf("refresh after removal = %d %s", r.status, r.raw)
	}
}

// TestRateLimitPerIP: /otp, /verify and /token answer 429 past the limit.
func TestRateLimitPerIP(t *testing.T) {
	f := newFixture(t, sqlite(), func(c *auth.Config) {
		c.RateLimit = ratelimit.Rate{N: 2, Per: time.Minute}
		c.RefreshRateLimit = ratelimit.Rate{N: 2, Per: time.Minute}
	})
	for _, path := range []string{"/auth/v1/verify", "/auth/v1/token?grant_type=refresh_token"} {
		body := `{"type":"email","email":"x@studio.test","token":"1","refresh_token":"x"}`
		var last response
		for range 3 {
			last = f.do("POST", path, body)
		}
		if last.status != 429 || last.body["error_code"] != "over_request_rate_limit" || last.header.Get("Retry-After") == "" {
			t.Errorf("%s third = %d %s", path, last.status, last.raw)
		}
	}
	// An IPv6 client is its /64: another address of it shares the
	// allowance, another /64 has its own.
	body := `{"type":"email","email":"x@studio.test","token":"1"}`
	for _, tt := range []struct {
		remote     string
		wantStatus int
	}{
		{"[2001:db8:1:2::1]:1000", 403}, {"[2001:db8:1:2::2]:1000", 403}, {"[2001:db8:1:2:ffff::3]:1000", 429}, {"[2001:db8:1:3::1]:1000", 403},
	} {
		f.remoteAddr = tt.remote
		if r := f.do("POST", "/auth/v1/verify", body); r.status != tt.wantStatus {
			t.Errorf("verify from %s = %d %s, want %d", tt.remote, r.status, r.raw, tt.wantStatus)
		}
	}
}

// TestSettingsHealthCORS: the public endpoints, and CORS for allowed origins.
func TestSettingsHealthCORS(t *testing.T) {
	f := newFixture(t, sqlite())
	s := f.do("GET", "/auth/v1/settings", "")
	if s.status != 200 || s.body["disable_signup"] != true || s.body["external"].(map[string]any)["email"] != true ||
		s.body["external"].(map[string]any)["phone"] != false {
		t.Errorf("settings = %d %s", s.status, s.raw)
	}
	if h := f.do("GET", "/auth/v1/health", ""); h.status != 200 {
		t.Errorf("health = %d", h.status)
	}
	pre := f.do("OPTIONS", "/auth/v1/token", "", "Origin", "https://console.test")
	if pre.status != 204 || !strings.Contains(pre.header.Get("Access-Control-Allow-Headers"), "x-supabase-api-version") ||
		pre.header.Get("Access-Control-Allow-Origin") != "https://console.test" {
		t.Errorf("preflight = %d %v", pre.status, pre.header)
	}
	r := f.do("POST", "/auth/v1/verify", `{}`, "Origin", "https://console.test")
	if r.header.Get("Access-Control-Expose-Headers") != "x-supabase-api-version, x-sb-error-code" {
		t.Errorf("expose headers = %q", r.header.Get("Access-Control-Expose-Headers"))
	}
}

// FuzzRequests: whatever the body or token, the answer is never a 5xx.
func FuzzRequests(f *testing.F) {
	for _, seed := range []string{`{}`, `{"type":"email","email":"ada@studio.test","token":"123456"}`, `{"token_hash":"abc","type":"magiclink"}`,
		`{"refresh_token":"abc"}`, `eyJhbGciOiJFUzI1NiJ9.e30.x`, "\x00\xff", `{"type":["email"]}`, `null`} {
		f.Add(seed)
	}
	fx := newFixture(f, sqlite())
	f.Fuzz(func(t *testing.T, in string) {
		fx.t = t
		for _, req := range []struct{ method, path, body string }{
			{"POST", "/auth/v1/verify", in},
			{"POST", "/auth/v1/token?grant_type=refresh_token", in},
			{"POST", "/auth/v1/otp", in},
		} {
			if r := fx.do(req.method, req.path, req.body); r.status >= 500 {
				t.Errorf("%s %s %q = %d %s", req.method, req.path, in, r.status, r.raw)
			}
		}
		r := httptest.NewRequest("GET", "/auth/v1/user", bytes.NewReader(nil))
		r.Header.Set("Authorization", "Bearer "+strings.Map(func(c rune) rune {
			if c <= ' ' || c > '~' {
				return 'x'
			}
			return c
		}, in))
		w := httptest.NewRecorder()
		fx.svc.ServeHTTP(w, r)
		if w.Code >= 500 {
			t.Errorf("GET /user with %q = %d %s", in, w.Code, w.Body.String())
		}
	})
}

// TestPKCE: with a code_challenge, the mailed link carries only an auth
// code, which signs in only with the matching verifier, once, before it
// expires: not through /verify as a token_hash, which leaves it for the
// verifier. The typed code of the same mail still signs in.
func TestPKCE(t *testing.T) {
	f := newFixture(t, sqlite())
	verifier := strings.Repeat("v", 50)
	sum := sha256.Sum256([]byte(verifier))
	challenge := base64.RawURLEncoding.EncodeToString(sum[:])
	askPKCE := func(path string) (authCode, typed string) {
		r := f.do("POST", path, `{"email":"ada@studio.test","code_challenge":"`+challenge+`","code_challenge_method":"s256"}`)
		if r.status != 200 {
			t.Fatalf("%s = %d %s", path, r.status, r.raw)
		}
		mail := f.mail()
		m := regexp.MustCompile(`\n(https://studio\.test/admin\?code=([A-Za-z0-9_-]+))\n`).FindStringSubmatch(mail)
		if m == nil {
			t.Fatalf("no link with only an auth code in the mail:\n%s", mail)
		}
		f.clock.Advance(auth.EmailInterval)
		return m[2], codeInMail.FindStringSubmatch(mail)[1]
	}
	exchange := func(code, verifier string) response {
		return f.do("POST", "/auth/v1/token?grant_type=pkce", `{"auth_code":"`+code+`","code_verifier":"`+verifier+`"}`)
	}
	code, _ := askPKCE("/auth/v1/otp")
	for _, typ := range []string{"magiclink", "email"} {
		r := f.do("POST", "/auth/v1/verify", `{"type":"`+typ+`","token_hash":"`+code+`"}`)
		if r.status != 400 || r.body["error_code"] != "flow_state_not_found" || r.body["access_token"] != nil {
			t.Errorf("verify the auth code as a %s token_hash = %d %s", typ, r.status, r.raw)
		}
	}
	if r := exchange(code, "wrong-verifier"); r.status != 400 || r.body["error_code"] != "bad_code_verifier" {
		t.Errorf("wrong verifier = %d %s", r.status, r.raw)
	}
	r := exchange(code, verifier)
	if r.status != 200 || r.body["access_token"] == nil || r.body["user"].(map[string]any)["email"] != adaEmail {
		t.Fatalf("exchange = %d %s", r.status, r.raw)
	}
	if r := f.do("GET", "/auth/v1/user", "", bearer(r.body)...); r.status != 200 {
		t.Errorf("GET /user with the PKCE session = %d", r.status)
	}
	if r := exchange(code, verifier); r.status != 404 || r.body["error_code"] != "flow_state_not_found" {
		t.Errorf("second exchange = %d %s", r.status, r.raw)
	}
	if r := f.do("POST", "/auth/v1/verify", `{"type":"magiclink","token_hash":"`+code+`"}`); r.status != 403 || r.body["error_code"] != "otp_expired" {
		t.Errorf("verify a used auth code = %d %s", r.status, r.raw)
	}

	code, _ = askPKCE("/auth/v1/recover")
	if r := f.do("POST", "/auth/v1/verify", `{"type":"recovery","token_hash":"`+code+`"}`); r.status != 400 || r.body["error_code"] != "flow_state_not_found" {
		t.Errorf("verify a recovery auth code = %d %s", r.status, r.raw)
	}
	if r := exchange(code, verifier); r.status != 200 {
		t.Errorf("exchange the recovery auth code = %d %s", r.status, r.raw)
	}

	_, typed := askPKCE("/auth/v1/otp")
	if r := f.do("POST", "/auth/v1/verify", `{"type":"email","email":"ada@studio.test","token":"`+typed+`"}`); r.status != 200 {
		t.Errorf("the typed code of a PKCE mail = %d %s", r.status, r.raw)
	}

	code, _ = askPKCE("/auth/v1/otp")
	f.clock.Advance(10 * time.Minute)
	if r := exchange(code, verifier); r.status != 422 || r.body["error_code"] != "flow_state_expired" {
		t.Errorf("expired = %d %s", r.status, r.raw)
	}
}

// TestRecoverAndResend: /recover mails a recovery code that verifies only
// as recovery; /resend signup mails a sign-in code; email_change sends
// nothing.
func TestRecoverAndResend(t *testing.T) {
	f := newFixture(t, sqlite())
	if r := f.do("POST", "/auth/v1/recover", `{"email":"ada@studio.test"}`); r.status != 200 || r.raw != "{}\n" {
		t.Fatalf("recover = %d %s", r.status, r.raw)
	}
	mail := f.mail()
	code := codeInMail.FindStringSubmatch(mail)
	if code == nil || !strings.Contains(mail, "type=recovery") || !strings.Contains(mail, "recover your access") {
		t.Fatalf("recovery mail:\n%s", mail)
	}
	if r := f.do("POST", "/auth/v1/verify", `{"type":"email","email":"ada@studio.test","token":"`+code[1]+`"}`); r.status != 403 {
		t.Errorf("recovery code as type email = %d %s", r.status, r.raw)
	}
	if r := f.do("POST", "/auth/v1/verify", `{"type":"recovery","email":"ada@studio.test","token":"`+code[1]+`"}`); r.status != 200 {
		t.Errorf("recovery code = %d %s", r.status, r.raw)
	}
	f.clock.Advance(auth.EmailInterval)
	if r := f.do("POST", "/auth/v1/resend", `{"type":"email_change","email":"ada@studio.test"}`); r.status != 200 || f.mail() != "" {
		t.Errorf("resend email_change = %d %s, want 200 and no mail", r.status, r.raw)
	}
	f.clock.Advance(auth.EmailInterval)
	if r := f.do("POST", "/auth/v1/resend", `{"type":"signup","email":"ada@studio.test"}`); r.status != 200 {
		t.Fatalf("resend signup = %d %s", r.status, r.raw)
	}
	code = codeInMail.FindStringSubmatch(f.mail())
	if code == nil {
		t.Fatal("no code in the resent mail")
	}
	if r := f.do("POST", "/auth/v1/verify", `{"type":"email","email":"ada@studio.test","token":"`+code[1]+`"}`); r.status != 200 {
		t.Errorf("resent code = %d %s", r.status, r.raw)
	}
	if r := f.do("POST", "/auth/v1/recover", `{"email":"eve@studio.test"}`); r.status != 200 || f.mail() != "" {
		t.Errorf("recover for someone who is not staff = %d %s, want 200 and no mail", r.status, r.raw)
	}
}

// TestUserUpdate: PUT /user merges data into user_metadata; a null removes
// a key; what staff cannot change is refused with a 4xx.
func TestUserUpdate(t *testing.T) {
	f := newFixture(t, sqlite())
	session := f.signIn()
	put := func(body string, headers ...string) response { return f.do("PUT", "/auth/v1/user", body, headers...) }
	r := put(`{"data":{"theme":"dark","name":null,"n":1}}`, bearer(session)...)
	if r.status != 200 {
		t.Fatalf("PUT /user = %d %s", r.status, r.raw)
	}
	want := map[string]any{"theme": "dark", "n": 1.0}
	if diff := cmp.Diff(want, r.body["user_metadata"]); diff != "" {
		t.Errorf("user_metadata (-want +got):\n%s", diff)
	}
	if got := f.do("GET", "/auth/v1/user", "", bearer(session)...); cmp.Diff(want, got.body["user_metadata"]) != "" {
		t.Errorf("GET /user after the update = %s", got.raw)
	}
	refreshed := f.do("POST", "/auth/v1/token?grant_type=refresh_token", `{"refresh_token":"`+session["refresh_token"].(string)+`"}`)
	claims := verifyWithJWKS(t, refreshed.body["access_token"].(string), f.do("GET", "/auth/v1/.well-known/jwks.json", "").raw)
	if diff := cmp.Diff(want, claims["user_metadata"]); diff != "" {
		t.Errorf("user_metadata claim after refresh (-want +got):\n%s", diff)
	}
	tests := []struct {
		name, body string
		headers    []string
		status     int
		code       string
	}{
		{"no token", `{"data":{}}`, nil, 401, "no_authorization"},
		{"not JSON", `{"data":`, bearer(session), 400, "bad_json"},
		{"data not an object", `{"data":[1]}`, bearer(session), 400, "bad_json"},
		{"password", `{"password":"hunter2"}`, bearer(session), 422, "validation_failed"},
		{"phone", `{"phone":"+1555"}`, bearer(session), 400, "phone_provider_disabled"},
		{"new e-mail without a nonce", `{"email":"other@studio.test"}`, bearer(session), 400, "reauthentication_needed"},
		{"new e-mail with a wrong nonce", `{"email":"other@studio.test","nonce":"123"}`, bearer(session), 400, "reauthentication_not_valid"},
		{"bad e-mail", `{"email":"other"}`, bearer(session), 400, "validation_failed"},
		{"too large", `{"data":{"x":"` + strings.Repeat("y", 20<<10) + `"}}`, bearer(session), 400, "validation_failed"},
	}
	for _, tt := range tests {
		if r := put(tt.body, tt.headers...); r.status != tt.status || r.body["error_code"] != tt.code {
			t.Errorf("%s: = %d %s, want %d %s", tt.name, r.status, r.raw, tt.status, tt.code)
		}
	}
}

// TestEmailChange: a nonce from GET /reauthenticate lets PUT /user ask for a
// new address, which a code mailed to it confirms.
func TestEmailChange(t *testing.T) {
	f := newFixture(t, sqlite())
	session := f.signIn()
	reauthenticate := func() string {
		if r := f.do("GET", "/auth/v1/reauthenticate", "", bearer(session)...); r.status != 200 {
			t.Fatalf("reauthenticate = %d %s", r.status, r.raw)
		}
		mail := f.mail()
		m := codeInMail.FindStringSubmatch(mail)
		if m == nil || strings.Contains(mail, "token_hash") {
			t.Fatalf("nonce mail:\n%s", mail)
		}
		f.clock.Advance(auth.EmailInterval)
		return m[1]
	}
	nonce := reauthenticate()
	r := f.do("PUT", "/auth/v1/user", `{"email":"Lovelace@Studio.test","nonce":"`+nonce+`"}`, bearer(session)...)
	if r.status != 200 || r.body["email"] != adaEmail {
		t.Fatalf("PUT /user email = %d %s, want 200 and the address unchanged until confirmed", r.status, r.raw)
	}
	mail := f.mail()
	code := codeInMail.FindStringSubmatch(mail)
	if code == nil || !strings.Contains(mail, "type=email_change") {
		t.Fatalf("confirmation mail:\n%s", mail)
	}
	if r := f.do("PUT", "/auth/v1/user", `{"email":"x@studio.test","nonce":"`+nonce+`"}`, bearer(session)...); r.status != 400 {
		t.Errorf("nonce used twice = %d %s", r.status, r.raw)
	}
	if r := f.do("POST", "/auth/v1/verify", `{"type":"email_change","email":"lovelace@studio.test","token":"000000"}`); r.status != 403 {
		t.Errorf("wrong confirmation code = %d %s", r.status, r.raw)
	}
	v := f.do("POST", "/auth/v1/verify", `{"type":"email_change","email":"lovelace@studio.test","token":"`+code[1]+`"}`)
	if v.status != 200 || v.body["user"].(map[string]any)["email"] != "lovelace@studio.test" {
		t.Fatalf("confirm = %d %s", v.status, v.raw)
	}
	if u := f.do("GET", "/auth/v1/user", "", bearer(session)...); u.body["email"] != "lovelace@studio.test" {
		t.Errorf("GET /user after the change = %s", u.raw)
	}

	// An address that is someone else's is refused.
	if err := f.db.CreateUser(context.Background(), staff.User{ID: "7f1c2f4e-8d1a-4a57-9a0e-5b8f0b1d2c3e", Email: "bob@studio.test",
		CreatedAt: f.clock.Now(), UpdatedAt: f.clock.Now()}, staff.AuditEntry{}); err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(auth.EmailInterval) // since the mail to the new address
	nonce = reauthenticate()
	if r := f.do("PUT", "/auth/v1/user", `{"email":"bob@studio.test","nonce":"`+nonce+`"}`, bearer(session)...); r.status != 422 || r.body["error_code"] != "email_exists" {
		t.Errorf("someone else's address = %d %s", r.status, r.raw)
	}
}

// TestKeyRotation: after "keys rotate", servers sign with the new key once
// they read the keys again; tokens of the old key keep working until it is
// removed, which waits until they have expired.
func TestKeyRotation(t *testing.T) {
	f := newFixture(t, sqlite())
	session := f.signIn()
	kidOf := func(token string) string {
		h, _ := base64.RawURLEncoding.DecodeString(strings.Split(token, ".")[0])
		var header struct{ Kid string }
		_ = json.Unmarshal(h, &header)
		return header.Kid
	}
	oldKid := kidOf(session["access_token"].(string))
	newKid, removed, err := auth.RotateKeys(context.Background(), f.db, f.secrets, f.clock.Now(), time.Hour)
	if err != nil || len(removed) != 0 || newKid == oldKid {
		t.Fatalf("RotateKeys = %q, %v, %v", newKid, removed, err)
	}
	f.clock.Advance(auth.KeyRefreshInterval)
	r := f.do("POST", "/auth/v1/token?grant_type=refresh_token", `{"refresh_token":"`+session["refresh_token"].(string)+`"}`)
	if r.status != 200 || kidOf(r.body["access_token"].(string)) != newKid {
		t.Fatalf("after the refresh interval the new token's kid is %q, want %q", kidOf(r.body["access_token"].(string)), newKid)
	}
	jwks := f.do("GET", "/auth/v1/.well-known/jwks.json", "")
	if !strings.Contains(jwks.raw, oldKid) || !strings.Contains(jwks.raw, newKid) {
		t.Errorf("JWKS %s lacks one of the keys", jwks.raw)
	}
	verifyWithJWKS(t, r.body["access_token"].(string), jwks.raw)
	if u := f.do("GET", "/auth/v1/user", "", bearer(session)...); u.status != 200 {
		t.Errorf("a token of the old key = %d %s", u.status, u.raw)
	}
	f.clock.Advance(time.Hour + time.Second)
	_, removed, err = auth.RotateKeys(context.Background(), f.db, f.secrets, f.clock.Now(), time.Hour)
	if err != nil || len(removed) != 1 || removed[0] != oldKid {
		t.Errorf("second rotation removed %v, %v; want the old key", removed, err)
	}
}

// TestOnlyHashesStored: once a sign-in mail has been sent, no row of the
// store holds its code or its link's token, only their hashes: every value
// of every table is read back.
func TestOnlyHashesStored(t *testing.T) {
	dir := t.TempDir()
	f := newFixture(t, storetest.Engine{Name: "sqlite", NewConfig: func(testing.TB) store.Config { return store.Config{DataDir: dir} }})
	code, tokenHash := f.askCode(adaEmail) // and sent
	raw, err := sql.Open("sqlite", filepath.Join(dir, store.SQLiteFile))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	tables, err := raw.Query(`SELECT name FROM sqlite_master WHERE type = 'table'`)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for tables.Next() {
		var name string
		_ = tables.Scan(&name)
		names = append(names, name)
	}
	tables.Close()
	seen := 0
	for _, table := range names {
		rows, err := raw.Query(`SELECT * FROM "` + table + `"`)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			values := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range values {
				ptrs[i] = &values[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for i, v := range values {
				text := fmt.Sprint(v)
				if b, ok := v.([]byte); ok {
					text = string(b)
				}
				seen++
				if strings.Contains(text, tokenHash) || strings.Contains(text, "\n    "+code) || text == code {
					t.Errorf("%s.%s holds the mail's code or link token in clear: %.80q", table, cols[i], text)
				}
			}
		}
		rows.Close()
	}
	if seen == 0 {
		t.Fatal("read no value from the store")
	}
}
