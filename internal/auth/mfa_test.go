package auth_test

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"studio/internal/auth"
	"studio/internal/fault"
	"studio/internal/staff"
	"studio/internal/store/storetest"
)

// enroll enrols a TOTP factor named name with session's token and returns
// its id and secret.
func (f *fixture) enroll(session map[string]any, name string) (id, secret string) {
	f.t.Helper()
	r := f.do("POST", "/auth/v1/factors", `{"factor_type":"totp","friendly_name":"`+name+`"}`, bearer(session)...)
	if r.status != 200 {
		f.t.Fatalf("enroll = %d %s", r.status, r.raw)
	}
	totp := r.body["totp"].(map[string]any)
	return r.body["id"].(string), totp["secret"].(string)
}

// challenge asks for a challenge of the factor and returns its id.
func (f *fixture) challenge(session map[string]any, factorID string) string {
	f.t.Helper()
	r := f.do("POST", "/auth/v1/factors/"+factorID+"/challenge", "", bearer(session)...)
	if r.status != 200 {
		f.t.Fatalf("challenge = %d %s", r.status, r.raw)
	}
	return r.body["id"].(string)
}

// totp is the secret's code steps time steps from now.
func (f *fixture) totp(secret string, steps int64) string {
	f.t.Helper()
	code, err := auth.TOTPCode(secret, f.clock.Now().Unix()/30+steps)
	if err != nil {
		f.t.Fatal(err)
	}
	return code
}

// verifyFactor verifies code against a new challenge of the factor.
func (f *fixture) verifyFactor(session map[string]any, factorID, code string) response {
	f.t.Helper()
	ch := f.challenge(session, factorID)
	return f.do("POST", "/auth/v1/factors/"+factorID+"/verify", `{"challenge_id":"`+ch+`","code":"`+code+`"}`, bearer(session)...)
}

// TestMFAFlow: enrol, challenge and verify raise the session to aal2 (amr
// gains totp); from then on the user's sessions need aal2; unenrolling
// from an aal2 session lowers them again.
func TestMFAFlow(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			ctx := context.Background()
			f := newFixture(t, engine)
			other := f.signIn()
			session := f.signIn()

			r := f.do("POST", "/auth/v1/factors", `{"factor_type":"totp","friendly_name":"Phone"}`, bearer(session)...)
			if r.status != 200 || r.body["type"] != "totp" || r.body["friendly_name"] != "Phone" {
				t.Fatalf("enroll = %d %s", r.status, r.raw)
			}
			factorID := r.body["id"].(string)
			totp := r.body["totp"].(map[string]any)
			secret := totp["secret"].(string)
			wantURI := "otpauth://totp/studio.test:ada@studio.test?algorithm=SHA1&digits=6&issuer=studio.test&period=30&secret=" + secret
			if totp["uri"] != wantURI || !strings.HasPrefix(totp["qr_code"].(string), "<svg ") {
				t.Errorf("totp = %v", totp)
			}
			user := f.do("GET", "/auth/v1/user", "", bearer(session)...)
			factors, _ := user.body["factors"].([]any)
			if len(factors) != 1 || factors[0].(map[string]any)["status"] != "unverified" || factors[0].(map[string]any)["factor_type"] != "totp" {
				t.Errorf("user factors = %v", user.body["factors"])
			}
			if _, e := f.svc.Authorize(ctx, session["access_token"].(string)); e != nil {
				t.Errorf("an unverified factor needs no aal2: %v", e)
			}

			r = f.do("POST", "/auth/v1/factors/"+factorID+"/challenge", "", bearer(session)...)
			if r.status != 200 || r.body["type"] != "totp" || r.body["expires_at"].(float64) != float64(f.clock.Now().Add(5*time.Minute).Unix()) {
				t.Fatalf("challenge = %d %s", r.status, r.raw)
			}
			r = f.do("POST", "/auth/v1/factors/"+factorID+"/verify", `{"challenge_id":"`+r.body["id"].(string)+`","code":"`+f.totp(secret, 0)+`"}`, bearer(session)...)
			if r.status != 200 {
				t.Fatalf("verify = %d %s", r.status, r.raw)
			}
			aal2Session := r.body
			if aal2Session["refresh_token"] == session["refresh_token"] {
				t.Error("verify kept the refresh token")
			}
			member, e := f.svc.Authorize(ctx, aal2Session["access_token"].(string))
			if e != nil || member.AAL != "aal2" {
				t.Fatalf("Authorize(aal2 token) = %+v, %v", member, e)
			}
			claims := verifyWithJWKS(t, aal2Session["access_token"].(string), f.do("GET", "/auth/v1/.well-known/jwks.json", "").raw)
			amr := claims["amr"].([]any)
			if claims["aal"] != "aal2" || amr[0].(map[string]any)["method"] != "totp" || amr[1].(map[string]any)["method"] != "otp" {
				t.Errorf("claims aal %v amr %v", claims["aal"], amr)
			}
			if fs := aal2Session["user"].(map[string]any)["factors"].([]any); fs[0].(map[string]any)["status"] != "verified" {
				t.Errorf("session user factors = %v", fs)
			}
			// GoTrue ends the user's sessions below aal2.
			if r := f.do("GET", "/auth/v1/user", "", bearer(other)...); r.status != 403 || r.body["error_code"] != "session_not_found" {
				t.Errorf("other aal1 session: GET /user = %d %s", r.status, r.raw)
			}
			// A new sign-in is aal1: /user works, data needs aal2.
			low := f.signIn()
			if r := f.do("GET", "/auth/v1/user", "", bearer(low)...); r.status != 200 {
				t.Errorf("aal1 GET /user = %d %s", r.status, r.raw)
			}
			if _, e := f.svc.Authorize(ctx, low["access_token"].(string)); !errors.Is(e, staff.ErrAAL2Required) {
				t.Errorf("Authorize(aal1 with a verified factor) = %v, want ErrAAL2Required", e)
			}
			// Refresh keeps aal2.
			r = f.do("POST", "/auth/v1/token?grant_type=refresh_token", `{"refresh_token":"`+aal2Session["refresh_token"].(string)+`"}`)
			if r.status != 200 {
				t.Fatalf("refresh = %d %s", r.status, r.raw)
			}
			if member, e := f.svc.Authorize(ctx, r.body["access_token"].(string)); e != nil || member.AAL != "aal2" {
				t.Errorf("after refresh: %+v, %v", member, e)
			}
			aal2Session = r.body

			if r := f.do("DELETE", "/auth/v1/factors/"+factorID, "", bearer(low)...); r.status != 422 || r.body["error_code"] != "insufficient_aal" {
				t.Errorf("unenroll at aal1 = %d %s", r.status, r.raw)
			}
			if r := f.do("DELETE", "/auth/v1/factors/"+factorID, "", bearer(aal2Session)...); r.status != 200 || r.body["id"] != factorID {
				t.Fatalf("unenroll = %d %s", r.status, r.raw)
			}
			if member, e := f.svc.Authorize(ctx, aal2Session["access_token"].(string)); e != nil || member.AAL != "aal1" {
				t.Errorf("after unenroll: %+v, %v (the session falls to aal1)", member, e)
			}
			if _, e := f.svc.Authorize(ctx, low["access_token"].(string)); e != nil {
				t.Errorf("after unenroll, aal1 is enough: %v", e)
			}
			if r := f.do("GET", "/auth/v1/user", "", bearer(low)...); r.body["factors"] != nil {
				t.Errorf("factors after unenroll = %v", r.body["factors"])
			}
			entries, err := f.db.ListAudit(ctx, time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			var actions []string
			for _, e := range entries {
				actions = append(actions, e.Action)
			}
			for _, want := range []string{staff.ActionFactorEnrolled, staff.ActionFactorVerified, staff.ActionFactorRemoved} {
				if !slices.Contains(actions, want) {
					t.Errorf("audit log has no %s: %v", want, actions)
				}
			}
		})
	}
}

// TestMFAErrors: every error of /factors, with GoTrue's status and code.
func TestMFAErrors(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) { testMFAErrors(t, engine) })
	}
}

func testMFAErrors(t *testing.T, engine storetest.Engine) {
	f := newFixture(t, engine)
	session := f.signIn()
	verifiedID, secret := f.enroll(session, "Verified")
	r := f.verifyFactor(session, verifiedID, f.totp(secret, -1))
	if r.status != 200 {
		t.Fatalf("verify = %d %s", r.status, r.raw)
	}
	aal2Session := r.body
	other := f.ada
	other.ID, other.Email = "0a0b0c0d-0000-4000-8000-000000000001", "bea@studio.test"
	if err := f.db.CreateUser(context.Background(), other, staff.AuditEntry{}); err != nil {
		t.Fatal(err)
	}

	used := f.challenge(aal2Session, verifiedID)
	path, body := "/auth/v1/factors/"+verifiedID+"/verify", `{"challenge_id":"`+used+`","code":"`+f.totp(secret, 0)+`"}`
	if r := f.do("POST", path, body, bearer(aal2Session)...); r.status != 200 {
		t.Fatalf("verify = %d %s", r.status, r.raw)
	} else {
		aal2Session = r.body
	}
	// A code works once, and so do the codes of earlier steps.
	for _, step := range []int64{0, -1} {
		if r := f.verifyFactor(aal2Session, verifiedID, f.totp(secret, step)); r.status != 422 || r.body["error_code"] != "mfa_verification_failed" {
			t.Errorf("code of step %+d again = %d %s", step, r.status, r.raw)
		}
	}
	// After the last verification: it ends aal1 sessions and removes
	// unverified factors.
	aal1Session := f.signIn()
	unverifiedID, _ := f.enroll(aal2Session, "Unverified")
	f.challenge(aal2Session, unverifiedID) // a challenged factor does not expire
	expired := f.challenge(aal2Session, verifiedID)
	fromAfar := f.challenge(aal2Session, verifiedID)
	f.clock.Advance(4 * time.Minute)
	challenge := f.challenge(aal2Session, verifiedID)
	f.clock.Advance(90 * time.Second) // expired is 5.5 minutes old; challenge 1.5
	wrong := "000000"
	for _, s := range []int64{-1, 0, 1} {
		if f.totp(secret, s) == wrong {
			wrong = "999999"
		}
	}

	verify := func(factor, challenge, code string) (string, string) {
		return "/auth/v1/factors/" + factor + "/verify", `{"challenge_id":"` + challenge + `","code":"` + code + `"}`
	}
	path, body = verify(verifiedID, "", "")
	tests := []struct {
		name         string
		method, path string
		body         string
		session      map[string]any
		remoteAddr   string
		wantStatus   int
		wantCode     string
		wantMsg      string
	}{
		{"enroll without a token", "POST", "/auth/v1/factors", `{"factor_type":"totp"}`, nil, "", 401, "no_authorization", ""},
		{"enroll bad JSON", "POST", "/auth/v1/factors", `{"factor_type":`, aal2Session, "", 400, "bad_json", ""},
		{"enroll unknown type", "POST", "/auth/v1/factors", `{"factor_type":"sms"}`, aal2Session, "", 400, "validation_failed", "factor_type needs to be totp, phone, or webauthn"},
		{"enroll phone", "POST", "/auth/v1/factors", `{"factor_type":"phone","phone":"+15555550100"}`, aal2Session, "", 422, "mfa_phone_enroll_not_enabled", ""},
		{"enroll webauthn with a name taken", "POST", "/auth/v1/factors", `{"factor_type":"webauthn","friendly_name":"Verified"}`, aal2Session, "", 422, "mfa_factor_name_conflict", ""},
		{"enroll webauthn at aal1 with a verified factor", "POST", "/auth/v1/factors", `{"factor_type":"webauthn","friendly_name":"New"}`, aal1Session, "", 403, "insufficient_aal", ""},
		{"enroll a long name", "POST", "/auth/v1/factors", `{"factor_type":"totp","friendly_name":"` + strings.Repeat("n", 300) + `"}`, aal2Session, "", 400, "validation_failed", ""},
		{"enroll a name taken", "POST", "/auth/v1/factors", `{"factor_type":"totp","friendly_name":"Verified"}`, aal2Session, "", 422, "mfa_factor_name_conflict",
			`A factor with the friendly name "Verified" for this user already exists`},
		{"enroll at aal1 with a verified factor", "POST", "/auth/v1/factors", `{"factor_type":"totp","friendly_name":"New"}`, aal1Session, "", 403, "insufficient_aal", "AAL2 required to enroll a new factor"},
		{"challenge an id that is not a UUID", "POST", "/auth/v1/factors/nope/challenge", "", aal2Session, "", 404, "validation_failed", "factor_id must be an UUID"},
		{"challenge an unknown factor", "POST", "/auth/v1/factors/0a0b0c0d-0000-4000-8000-0000000000ff/challenge", "", aal2Session, "", 404, "mfa_factor_not_found", "Factor not found"},
		{"verify without a challenge", "POST", path, body, aal2Session, "", 400, "validation_failed", "challenge_id must be a UUID"},
		{"verify without a code", "POST", "/auth/v1/factors/" + verifiedID + "/verify", `{"challenge_id":"` + challenge + `"}`, aal2Session, "", 400, "validation_failed", "Code needs to be non-empty"},
		{"verify code of the wrong type", "POST", "/auth/v1/factors/" + verifiedID + "/verify", `{"challenge_id":"` + challenge + `","code":123456}`, aal2Session, "", 400, "bad_json", ""},
		{"verify an unknown challenge", "POST", "/auth/v1/factors/" + verifiedID + "/verify", `{"challenge_id":"0a0b0c0d-0000-4000-8000-0000000000ee","code":"123456"}`, aal2Session, "", 422, "mfa_factor_not_found",
			"MFA factor with the provided challenge ID not found"},
		{"verify a challenge of another factor", "POST", "/auth/v1/factors/" + unverifiedID + "/verify", `{"challenge_id":"` + challenge + `","code":"123456"}`, aal2Session, "", 422, "mfa_factor_not_found", ""},
		{"verify a wrong code", "POST", "/auth/v1/factors/" + verifiedID + "/verify", `{"challenge_id":"` + challenge + `","code":"` + wrong + `"}`, aal2Session, "", 422, "mfa_verification_failed", "Invalid TOTP code entered"},
		{"verify an expired challenge", "POST", "/auth/v1/factors/" + verifiedID + "/verify", `{"challenge_id":"` + expired + `","code":"123456"}`, aal2Session, "", 422, "mfa_challenge_expired",
			"MFA challenge " + expired + " has expired, verify against another challenge or create a new challenge."},
		{"verify from another address", "POST", "/auth/v1/factors/" + verifiedID + "/verify", `{"challenge_id":"` + fromAfar + `","code":"123456"}`, aal2Session, "198.51.100.7:4000", 422, "mfa_ip_address_mismatch", ""},
		{"verify a challenge used already", "POST", "/auth/v1/factors/" + verifiedID + "/verify", `{"challenge_id":"` + used + `","code":"123456"}`, aal2Session, "", 422, "mfa_ip_address_mismatch", ""},
		{"unenroll verified at aal1", "DELETE", "/auth/v1/factors/" + verifiedID, "", aal1Session, "", 422, "insufficient_aal", "AAL2 required to unenroll verified factor"},
		{"unenroll an unknown factor", "DELETE", "/auth/v1/factors/0a0b0c0d-0000-4000-8000-0000000000ff", "", aal2Session, "", 404, "mfa_factor_not_found", ""},
		{"e-mail change at aal1 with a verified factor", "PUT", "/auth/v1/user", `{"email":"new@studio.test","nonce":"123456"}`, aal1Session, "", 401, "insufficient_aal", ""},
		{"factors: wrong method", "GET", "/auth/v1/factors", "", aal2Session, "", 405, "method_not_allowed", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var h []string
			if tt.session != nil {
				h = bearer(tt.session)
			}
			f.remoteAddr = tt.remoteAddr
			defer func() { f.remoteAddr = "" }()
			r := f.do(tt.method, tt.path, tt.body, h...)
			if r.status != tt.wantStatus || r.body["error_code"] != tt.wantCode || r.header.Get("x-sb-error-code") != tt.wantCode {
				t.Errorf("= %d %s, want %d %s", r.status, r.raw, tt.wantStatus, tt.wantCode)
			}
			if msg, _ := r.body["msg"].(string); msg == "" || (tt.wantMsg != "" && msg != tt.wantMsg) {
				t.Errorf("message %q, want %q", msg, tt.wantMsg)
			}
		})
	}

	t.Run("wrong codes end the challenge", func(t *testing.T) {
		ch := f.challenge(aal2Session, verifiedID)
		path, body := verify(verifiedID, ch, wrong)
		for i := range staff.MaxCodeTries {
			if r := f.do("POST", path, body, bearer(aal2Session)...); r.body["error_code"] != "mfa_verification_failed" {
				t.Fatalf("try %d = %d %s", i+1, r.status, r.raw)
			}
		}
		path, body = verify(verifiedID, ch, f.totp(secret, 1))
		if r := f.do("POST", path, body, bearer(aal2Session)...); r.status != 422 || r.body["error_code"] != "mfa_factor_not_found" {
			t.Errorf("right code after %d wrong ones = %d %s", staff.MaxCodeTries, r.status, r.raw)
		}
	})

	t.Run("at most ten factors", func(t *testing.T) {
		for i := 2; i < auth.MaxFactors; i++ {
			f.enroll(aal2Session, fmt.Sprint("Spare ", i))
		}
		r := f.do("POST", "/auth/v1/factors", `{"factor_type":"totp","friendly_name":"One too many"}`, bearer(aal2Session)...)
		if r.status != 422 || r.body["error_code"] != "too_many_enrolled_mfa_factors" {
			t.Errorf("11th factor = %d %s", r.status, r.raw)
		}
		// Unverified factors never challenged expire: the next enrolment
		// removes them.
		f.clock.Advance(auth.UnverifiedFactorExpiry + time.Second)
		aal2Session = f.do("POST", "/auth/v1/token?grant_type=refresh_token", `{"refresh_token":"`+aal2Session["refresh_token"].(string)+`"}`).body
		if r := f.do("POST", "/auth/v1/factors", `{"factor_type":"totp","friendly_name":"After expiry"}`, bearer(aal2Session)...); r.status != 200 {
			t.Fatalf("enroll after expiry = %d %s", r.status, r.raw)
		}
		factors := f.do("GET", "/auth/v1/user", "", bearer(aal2Session)...).body["factors"].([]any)
		if len(factors) != 3 {
			t.Errorf("factors = %v, want the verified one, the challenged one and the new one", factors)
		}
	})

	t.Run("another user's factor", func(t *testing.T) {
		code := f.signInCode(other.Email)
		r := f.do("POST", "/auth/v1/verify", `{"email":"`+other.Email+`","token":"`+code+`","type":"email"}`)
		if r.status != 200 {
			t.Fatalf("verify = %d %s", r.status, r.raw)
		}
		for _, path := range []string{"/auth/v1/factors/" + verifiedID + "/challenge", "/auth/v1/factors/" + verifiedID + "/verify"} {
			if r := f.do("POST", path, `{}`, bearer(r.body)...); r.status != 404 || r.body["error_code"] != "mfa_factor_not_found" {
				t.Errorf("%s = %d %s", path, r.status, r.raw)
			}
		}
	})
}

// signInCode asks for a sign-in code for email and returns it.
func (f *fixture) signInCode(email string) string {
	f.t.Helper()
	code, _ := f.askCode(email)
	f.clock.Advance(auth.EmailInterval)
	return code
}

// TestSessionLimits: GoTrue's session_expired once a session outlives the
// timebox or goes unrefreshed for the inactivity timeout, on refresh and
// on every token check.
func TestSessionLimits(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			f := newFixture(t, engine, func(c *auth.Config) {
				c.SessionTimebox, c.SessionInactivityTimeout, c.JWTExpiry = 3*time.Hour, 2*time.Hour, 4*time.Hour
			})
			refresh := func(s map[string]any) response {
				return f.do("POST", "/auth/v1/token?grant_type=refresh_token", `{"refresh_token":"`+s["refresh_token"].(string)+`"}`)
			}
			idle := f.signIn()
			busy := f.signIn()
			for range 3 { // busy refreshes every 50 minutes
				f.clock.Advance(50 * time.Minute)
				r := refresh(busy)
				if r.status != 200 {
					t.Fatalf("refresh = %d %s", r.status, r.raw)
				}
				busy = r.body
			}
			// 2½ h on: idle was not refreshed for over 2 h.
			if r := f.do("GET", "/auth/v1/user", "", bearer(idle)...); r.status != 403 || r.body["error_code"] != "session_expired" {
				t.Errorf("idle GET /user = %d %s", r.status, r.raw)
			}
			if r := refresh(idle); r.status != 400 || r.body["error_code"] != "session_expired" || r.body["msg"] != "Invalid Refresh Token: Session Expired (Inactivity)" {
				t.Errorf("idle refresh = %d %s", r.status, r.raw)
			}
			if _, e := f.svc.Authorize(context.Background(), idle["access_token"].(string)); e == nil || fault.KindOf(e) != fault.Unauthenticated {
				t.Errorf("idle Authorize = %v", e)
			}
			if r := f.do("GET", "/auth/v1/user", "", bearer(busy)...); r.status != 200 {
				t.Errorf("busy GET /user = %d %s", r.status, r.raw)
			}
			f.clock.Advance(31 * time.Minute) // 3 h 1 min after the sign-in
			if r := refresh(busy); r.status != 400 || r.body["error_code"] != "session_expired" || r.body["msg"] != "Invalid Refresh Token: Session Expired" {
				t.Errorf("busy refresh past the timebox = %d %s", r.status, r.raw)
			}
			if r := f.do("GET", "/auth/v1/user", "", bearer(busy)...); r.status != 403 || r.body["error_code"] != "session_expired" {
				t.Errorf("busy GET /user past the timebox = %d %s", r.status, r.raw)
			}
		})
	}
}

// FuzzFactors: no body or factor id makes /factors answer 5xx.
func FuzzFactors(f *testing.F) {
	for _, seed := range []string{`{}`, `{"factor_type":"totp","friendly_name":"x"}`, `{"challenge_id":"0a0b0c0d-0000-4000-8000-000000000001","code":"123456"}`,
		`{"code":["1"]}`, `{"factor_type":null}`, "\x00\xff", `null`, `{"friendly_name":"` + strings.Repeat("é", 300) + `"}`} {
		f.Add(seed)
	}
	fx := newFixture(f, sqlite())
	session := fx.signIn()
	factorID, _ := fx.enroll(session, "Fuzzed")
	f.Fuzz(func(t *testing.T, in string) {
		fx.t = t
		for _, req := range []struct{ method, path, body string }{
			{"POST", "/auth/v1/factors", in},
			{"POST", "/auth/v1/factors/" + factorID + "/challenge", in},
			{"POST", "/auth/v1/factors/" + factorID + "/verify", in},
			{"POST", "/auth/v1/factors/" + url.PathEscape(in) + "/verify", `{}`},
			{"DELETE", "/auth/v1/factors/" + url.PathEscape(in), ""},
		} {
			if r := fx.do(req.method, req.path, req.body, bearer(session)...); r.status >= 500 {
				t.Errorf("%s %s %q = %d %s", req.method, req.path, req.body, r.status, r.raw)
			}
		}
	})
}

// inFlight is how many requests the race tests send at once.
const inFlight = 32

// together runs do(i) for i in [0, n) in n goroutines released at the same
// moment, and returns their answers.
func together(n int, do func(i int) response) []response {
	out := make([]response, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			out[i] = do(i)
		}()
	}
	close(start)
	wg.Wait()
	return out
}

// countStatus is how many answers have the status.
func countStatus(rs []response, status int) int {
	n := 0
	for _, r := range rs {
		if r.status == status {
			n++
		}
	}
	return n
}

// TestMFAVerifyRace: with many verifications of one factor in flight at
// once (on PostgreSQL, each in its own transaction), a code is accepted
// once, and a challenge counts at most MaxCodeTries wrong codes. A race is
// not lost every time: each case runs raceRounds times, on a new store.
func TestMFAVerifyRace(t *testing.T) {
	const raceRounds = 3
	verify := func(f *fixture, session map[string]any, factorID, challenge, code string) response {
		return f.do("POST", "/auth/v1/factors/"+factorID+"/verify", `{"challenge_id":"`+challenge+`","code":"`+code+`"}`, bearer(session)...)
	}
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			t.Run("one code, many challenges", func(t *testing.T) {
				for range raceRounds {
					f := newFixture(t, engine)
					session := f.signIn()
					factorID, secret := f.enroll(session, "Phone")
					challenges := make([]string, inFlight)
					for i := range challenges {
						challenges[i] = f.challenge(session, factorID)
					}
					code := f.totp(secret, 0)
					rs := together(inFlight, func(i int) response { return verify(f, session, factorID, challenges[i], code) })
					if n := countStatus(rs, 200); n != 1 {
						t.Errorf("the code was accepted %d times, want once", n)
					}
				}
			})
			t.Run("wrong codes, one challenge", func(t *testing.T) {
				for range raceRounds {
					f := newFixture(t, engine)
					session := f.signIn()
					factorID, secret := f.enroll(session, "Phone")
					challenge := f.challenge(session, factorID)
					wrong := wrongCode(f, secret)
					rs := together(inFlight, func(int) response { return verify(f, session, factorID, challenge, wrong) })
					tried := 0
					for _, r := range rs {
						if r.body["error_code"] == "mfa_verification_failed" {
							tried++
						}
					}
					if tried > staff.MaxCodeTries {
						t.Errorf("%d wrong codes were tried on one challenge, want at most %d", tried, staff.MaxCodeTries)
					}
				}
			})
		})
	}
}

// wrongCode is a code that is not the secret's around now.
func wrongCode(f *fixture, secret string) string {
	wrong := "000000"
	for _, s := range []int64{-1, 0, 1} {
		if f.totp(secret, s) == wrong {
			wrong = "999999"
		}
	}
	return wrong
}

// TestMFALockout: MaxFailures wrong codes within the window lock the
// factor out: every code, right or wrong, answers 429 until the window
// ends; its owner gets one mail per lockout and the audit log one entry;
// studio staff reset-mfa (ResetFactors) lets them enrol again at once.
func TestMFALockout(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			ctx := context.Background()
			f := newFixture(t, engine)
			session := f.signIn()
			factorID, secret := f.enroll(session, "Phone")
			if r := f.verifyFactor(session, factorID, f.totp(secret, -1)); r.status != 200 {
				t.Fatalf("verify = %d %s", r.status, r.raw)
			}
			attacker := f.signIn()
			f.mail() // the sign-in mails
			wrong := wrongCode(f, secret)
			lockOut := func() {
				t.Helper()
				var ch string
				for i := range staff.MaxFailures {
					if i%staff.MaxCodeTries == 0 {
						ch = f.challenge(attacker, factorID)
					}
					r := f.do("POST", "/auth/v1/factors/"+factorID+"/verify", `{"challenge_id":"`+ch+`","code":"`+wrong+`"}`, bearer(attacker)...)
					if r.status != 422 || r.body["error_code"] != "mfa_verification_failed" {
						t.Fatalf("wrong code %d = %d %s", i+1, r.status, r.raw)
					}
					f.clock.Advance(time.Minute)
				}
			}
			windowStart := f.clock.Now()
			lockOut() // MaxFailures minutes into the window

			for _, code := range []string{f.totp(secret, 0), wrong} {
				r := f.verifyFactor(attacker, factorID, code)
				wantRetry := fmt.Sprint((staff.FailureWindow - staff.MaxFailures*time.Minute).Seconds())
				if r.status != 429 || r.body["error_code"] != "over_request_rate_limit" || r.header.Get("Retry-After") != wantRetry {
					t.Errorf("code %s while locked out = %d %s Retry-After %q, want 429 over_request_rate_limit %s",
						code, r.status, r.raw, r.header.Get("Retry-After"), wantRetry)
				}
			}
			mail := f.mail()
			if strings.Count(mail, "wrong codes") != 1 || !strings.Contains(mail, `"Phone"`) || !strings.Contains(mail, "reset-mfa ada@studio.test") {
				t.Errorf("want one mail that tells of the guessing, got:\n%s", mail)
			}
			if n := countAudit(t, f, staff.ActionFactorLocked); n != 1 {
				t.Errorf("%d %s in the audit log, want 1", n, staff.ActionFactorLocked)
			}

			// The window ends an hour after its first wrong code.
			f.clock.Advance(windowStart.Add(staff.FailureWindow - time.Second).Sub(f.clock.Now()))
			attacker = f.refresh(attacker)
			if r := f.verifyFactor(attacker, factorID, f.totp(secret, 0)); r.status != 429 {
				t.Errorf("a second before the window ends = %d %s", r.status, r.raw)
			}
			f.clock.Advance(time.Second)
			if r := f.verifyFactor(attacker, factorID, f.totp(secret, 0)); r.status != 200 {
				t.Errorf("right code once the window ended = %d %s", r.status, r.raw)
			}

			// A new lockout mails again; reset-mfa clears it.
			lockOut()
			if mail := f.mail(); strings.Count(mail, "wrong codes") != 1 {
				t.Errorf("second lockout: want one mail, got:\n%s", mail)
			}
			if _, err := f.db.ResetFactors(ctx, f.ada.ID, staff.AuditEntry{}); err != nil {
				t.Fatal(err)
			}
			session = f.signIn()
			newID, newSecret := f.enroll(session, "Phone")
			if r := f.verifyFactor(session, newID, f.totp(newSecret, 1)); r.status != 200 {
				t.Errorf("enrol again after reset-mfa: verify = %d %s", r.status, r.raw)
			}
		})
	}
}

// refresh refreshes the session and returns the new one.
func (f *fixture) refresh(session map[string]any) map[string]any {
	f.t.Helper()
	r := f.do("POST", "/auth/v1/token?grant_type=refresh_token", `{"refresh_token":"`+session["refresh_token"].(string)+`"}`)
	if r.status != 200 {
		f.t.Fatalf("refresh = %d %s", r.status, r.raw)
	}
	return r.body
}

// countAudit is how many entries of the audit log have the action.
func countAudit(t *testing.T, f *fixture, action string) int {
	t.Helper()
	entries, err := f.db.ListAudit(context.Background(), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if e.Action == action {
			n++
		}
	}
	return n
}

// TestFactorFailures: the window of wrong codes begins with its first one,
// and only MaxFailures within it lock the factor out, until it ends.
func TestFactorFailures(t *testing.T) {
	t0 := time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)
	end := t0.Add(staff.FailureWindow)
	tests := []struct {
		name       string
		failures   staff.Failures
		at         time.Time
		want       staff.Failures
		wantLocks  bool
		lockedThen time.Time // LockedUntil(at) after the wrong code
	}{
		{"first wrong code", staff.Failures{}, t0, staff.Failures{Count: 1, Since: t0}, false, time.Time{}},
		{"one short", staff.Failures{Count: staff.MaxFailures - 2, Since: t0}, t0.Add(time.Minute),
			staff.Failures{Count: staff.MaxFailures - 1, Since: t0}, false, time.Time{}},
		{"the one that locks", staff.Failures{Count: staff.MaxFailures - 1, Since: t0}, end.Add(-time.Second),
			staff.Failures{Count: staff.MaxFailures, Since: t0}, true, end},
		{"more while locked", staff.Failures{Count: staff.MaxFailures, Since: t0}, t0.Add(time.Minute),
			staff.Failures{Count: staff.MaxFailures + 1, Since: t0}, false, end},
		{"after the window, a new one", staff.Failures{Count: staff.MaxFailures - 1, Since: t0}, end,
			staff.Failures{Count: 1, Since: end}, false, time.Time{}},
		{"after a lockout, a new one", staff.Failures{Count: staff.MaxFailures, Since: t0}, end.Add(time.Hour),
			staff.Failures{Count: 1, Since: end.Add(time.Hour)}, false, time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, locks := tt.failures.Add(tt.at)
			if got != tt.want || locks != tt.wantLocks {
				t.Errorf("Add = %+v, %v; want %+v, %v", got, locks, tt.want, tt.wantLocks)
			}
			if until := got.LockedUntil(tt.at); !until.Equal(tt.lockedThen) {
				t.Errorf("LockedUntil = %v, want %v", until, tt.lockedThen)
			}
		})
	}
}
