package auth_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"studio/internal/auth"
	"studio/internal/auth/webauthntest"
	"studio/internal/staff"
	"studio/internal/store/storetest"
)

// passkey is a software authenticator for the fixture's site.
func (f *fixture) passkey() *webauthntest.Authenticator {
	f.t.Helper()
	a, err := webauthntest.New(origin)
	if err != nil {
		f.t.Fatal(err)
	}
	return a
}

// webauthnChallenge asks for a challenge of the passkey factor (body as
// supabase-js sends it) and returns its id and its credential_options.
func (f *fixture) webauthnChallenge(session map[string]any, factorID, wantType string) (string, []byte) {
	f.t.Helper()
	r := f.do("POST", "/auth/v1/factors/"+factorID+"/challenge",
		`{"factorId":"`+factorID+`","webauthn":{"rpId":"studio.test","rpOrigins":["https://studio.test"]}}`, bearer(session)...)
	if r.status != 200 {
		f.t.Fatalf("challenge = %d %s", r.status, r.raw)
	}
	wa, _ := r.body["webauthn"].(map[string]any)
	if r.body["type"] != "webauthn" || wa["type"] != wantType {
		f.t.Fatalf("challenge = %s, want a %s ceremony", r.raw, wantType)
	}
	opts, _ := json.Marshal(wa["credential_options"])
	return r.body["id"].(string), opts
}

// webauthnVerify sends a credential response of ceremony typ to the
// challenge, as supabase-js's mfa.verify does.
func (f *fixture) webauthnVerify(session map[string]any, factorID, challengeID, typ string, credential []byte) response {
	f.t.Helper()
	return f.do("POST", "/auth/v1/factors/"+factorID+"/verify", `{"challenge_id":"`+challengeID+`","webauthn":{"type":"`+typ+
		`","rpId":"studio.test","rpOrigins":["https://studio.test"],"credential_response":`+string(credential)+`}}`, bearer(session)...)
}

// enrollPasskey enrols and registers key as a passkey factor named name and
// returns the factor's id and the aal2 session.
func (f *fixture) enrollPasskey(session map[string]any, name string, key *webauthntest.Authenticator) (string, map[string]any) {
	f.t.Helper()
	r := f.do("POST", "/auth/v1/factors", `{"factor_type":"webauthn","friendly_name":"`+name+`"}`, bearer(session)...)
	if r.status != 200 {
		f.t.Fatalf("enroll = %d %s", r.status, r.raw)
	}
	id := r.body["id"].(string)
	ch, opts := f.webauthnChallenge(session, id, "create")
	cred, err := key.Create(opts)
	if err != nil {
		f.t.Fatal(err)
	}
	r = f.webauthnVerify(session, id, ch, "create", cred)
	if r.status != 200 {
		f.t.Fatalf("verify create = %d %s", r.status, r.raw)
	}
	return id, r.body
}

// TestWebAuthnFlow: enrol a passkey (factor_type webauthn), register it
// through a create ceremony, then sign in again and verify an assertion
// through a request ceremony; both raise the session to aal2 with amr
// mfa/webauthn, and the relying party is the site's.
func TestWebAuthnFlow(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			ctx := context.Background()
			f := newFixture(t, engine)
			key := f.passkey()
			session := f.signIn()

			r := f.do("POST", "/auth/v1/factors", `{"factor_type":"webauthn","friendly_name":"Laptop"}`, bearer(session)...)
			if r.status != 200 || r.body["type"] != "webauthn" || r.body["friendly_name"] != "Laptop" || r.body["totp"] != nil {
				t.Fatalf("enroll = %d %s", r.status, r.raw)
			}
			factorID := r.body["id"].(string)

			ch, opts := f.webauthnChallenge(session, factorID, "create")
			var create struct {
				PublicKey struct {
					RP        struct{ ID, Name string }
					User      struct{ ID, Name, DisplayName string }
					Challenge string
				}
			}
			if err := json.Unmarshal(opts, &create); err != nil {
				t.Fatal(err)
			}
			pk := create.PublicKey
			if pk.RP.ID != "studio.test" || pk.User.Name != adaEmail || pk.User.DisplayName != "Ada" || len(pk.Challenge) < 22 {
				t.Errorf("creation options = %s", opts)
			}
			cred, err := key.Create(opts)
			if err != nil {
				t.Fatal(err)
			}
			r = f.webauthnVerify(session, factorID, ch, "create", cred)
			if r.status != 200 {
				t.Fatalf("verify create = %d %s", r.status, r.raw)
			}
			claims := verifyWithJWKS(t, r.body["access_token"].(string), f.do("GET", "/auth/v1/.well-known/jwks.json", "").raw)
			if amr := claims["amr"].([]any); claims["aal"] != "aal2" || amr[0].(map[string]any)["method"] != "mfa/webauthn" {
				t.Errorf("claims aal %v amr %v", claims["aal"], claims["amr"])
			}
			fs := r.body["user"].(map[string]any)["factors"].([]any)
			if fl := fs[0].(map[string]any); fl["factor_type"] != "webauthn" || fl["status"] != "verified" {
				t.Errorf("factors = %v", fs)
			}
			creds, err := f.db.WebAuthnCredentials(ctx, f.ada.ID)
			if err != nil || len(creds) != 1 || string(creds[0].ID) != string(key.CredentialID) || creds[0].SignCount != 1 ||
				creds[0].Transports[0] != "internal" || string(creds[0].AAGUID) != string(key.AAGUID[:]) {
				t.Fatalf("stored credentials = %+v, %v", creds, err)
			}

			// A new sign-in needs aal2: the passkey is asked for.
			low := f.signIn()
			if _, e := f.svc.Authorize(ctx, low["access_token"].(string)); !errors.Is(e, staff.ErrAAL2Required) {
				t.Errorf("Authorize(aal1) = %v, want insufficient_aal", e)
			}
			ch, opts = f.webauthnChallenge(low, factorID, "request")
			var request struct {
				PublicKey struct {
					RPID             string
					AllowCredentials []struct{ ID string }
				}
			}
			if err := json.Unmarshal(opts, &request); err != nil {
				t.Fatal(err)
			}
			allow := request.PublicKey.AllowCredentials
			if request.PublicKey.RPID != "studio.test" || len(allow) != 1 || allow[0].ID != base64.RawURLEncoding.EncodeToString(key.CredentialID) {
				t.Errorf("request options = %s", opts)
			}
			assertion, err := key.Get(opts)
			if err != nil {
				t.Fatal(err)
			}
			r = f.webauthnVerify(low, factorID, ch, "request", assertion)
			if r.status != 200 {
				t.Fatalf("verify request = %d %s", r.status, r.raw)
			}
			if staff, e := f.svc.Authorize(ctx, r.body["access_token"].(string)); e != nil || staff.AAL != "aal2" {
				t.Errorf("Authorize(after the passkey) = %+v, %v", staff, e)
			}
			if creds, _ := f.db.WebAuthnCredentials(ctx, f.ada.ID); creds[0].SignCount != 2 || creds[0].UsedAt == nil {
				t.Errorf("after the assertion: %+v", creds[0])
			}

			// Unenrolling it (at aal2) removes its credential.
			if r := f.do("DELETE", "/auth/v1/factors/"+factorID, "", bearer(r.body)...); r.status != 200 {
				t.Fatalf("unenroll = %d %s", r.status, r.raw)
			}
			if creds, _ := f.db.WebAuthnCredentials(ctx, f.ada.ID); len(creds) != 0 {
				t.Errorf("credentials after unenroll = %+v", creds)
			}
		})
	}
}

// TestWebAuthnRefusals: the rules of a passkey's verification. The relying
// party is the site's whatever the caller says; a challenge is answered
// once; an assertion must be of the registered credential, for this site's
// origin and relying party id, and its signature counter must go up.
func TestWebAuthnRefusals(t *testing.T) {
	type step struct {
		session   map[string]any
		factorID  string
		challenge string
		options   []byte
	}
	tests := []struct {
		name string
		// try answers the request ceremony st (the fixture's passkey is
		// key) and returns the answer to check.
		try        func(f *fixture, key *webauthntest.Authenticator, st step) response
		status     int
		code, text string
		audit      string // an action the audit log must hold after
	}{
		{"caller's rpId at challenge", func(f *fixture, _ *webauthntest.Authenticator, st step) response {
			return f.do("POST", "/auth/v1/factors/"+st.factorID+"/challenge", `{"webauthn":{"rpId":"evil.test","rpOrigins":["https://studio.test"]}}`, bearer(st.session)...)
		}, 400, "validation_failed", `rpId must be this site's host name \"studio.test\"`, ""},
		{"caller's rpOrigins at challenge", func(f *fixture, _ *webauthntest.Authenticator, st step) response {
			return f.do("POST", "/auth/v1/factors/"+st.factorID+"/challenge", `{"webauthn":{"rpId":"studio.test","rpOrigins":["https://evil.test"]}}`, bearer(st.session)...)
		}, 400, "validation_failed", "rpOrigins may only name", ""},
		{"caller's rpOrigins at verify", func(f *fixture, key *webauthntest.Authenticator, st step) response {
			a, _ := key.Get(st.options)
			return f.do("POST", "/auth/v1/factors/"+st.factorID+"/verify", `{"challenge_id":"`+st.challenge+
				`","webauthn":{"type":"request","rpId":"studio.test","rpOrigins":["https://studio.test","https://evil.test"],"credential_response":`+string(a)+`}}`, bearer(st.session)...)
		}, 400, "validation_failed", "rpOrigins may only name", ""},
		{"assertion from another origin", func(f *fixture, key *webauthntest.Authenticator, st step) response {
			key.Origin = "https://evil.test"
			a, _ := key.Get(st.options)
			return f.webauthnVerify(st.session, st.factorID, st.challenge, "request", a)
		}, 422, "mfa_verification_failed", "The passkey was refused", "factor_verify_failed"},
		{"assertion for another relying party", func(f *fixture, key *webauthntest.Authenticator, st step) response {
			key.RPID = "evil.test"
			a, _ := key.Get(st.options)
			return f.webauthnVerify(st.session, st.factorID, st.challenge, "request", a)
		}, 422, "mfa_verification_failed", "The passkey was refused", "factor_verify_failed"},
		{"assertion by another key", func(f *fixture, key *webauthntest.Authenticator, st step) response {
			other := f.passkey()
			other.CredentialID, other.UserHandle = key.CredentialID, key.UserHandle
			a, _ := other.Get(st.options)
			return f.webauthnVerify(st.session, st.factorID, st.challenge, "request", a)
		}, 422, "mfa_verification_failed", "The passkey was refused", "factor_verify_failed"},
		{"another challenge's assertion", func(f *fixture, key *webauthntest.Authenticator, st step) response {
			_, opts := f.webauthnChallenge(st.session, st.factorID, "request")
			a, _ := key.Get(opts)
			return f.webauthnVerify(st.session, st.factorID, st.challenge, "request", a)
		}, 422, "mfa_verification_failed", "The passkey was refused", "factor_verify_failed"},
		{"replayed assertion", func(f *fixture, key *webauthntest.Authenticator, st step) response {
			a, _ := key.Get(st.options)
			if r := f.webauthnVerify(st.session, st.factorID, st.challenge, "request", a); r.status != 200 {
				f.t.Fatalf("first verify = %d %s", r.status, r.raw)
			}
			return f.webauthnVerify(st.session, st.factorID, st.challenge, "request", a)
		}, 422, "mfa_ip_address_mismatch", "", ""},
		{"replayed assertion on a new challenge", func(f *fixture, key *webauthntest.Authenticator, st step) response {
			a, _ := key.Get(st.options)
			if r := f.webauthnVerify(st.session, st.factorID, st.challenge, "request", a); r.status != 200 {
				f.t.Fatalf("first verify = %d %s", r.status, r.raw)
			}
			ch, _ := f.webauthnChallenge(st.session, st.factorID, "request")
			return f.webauthnVerify(st.session, st.factorID, ch, "request", a)
		}, 422, "mfa_verification_failed", "The passkey was refused", "factor_verify_failed"},
		{"a refused answer uses the challenge up", func(f *fixture, key *webauthntest.Authenticator, st step) response {
			key.Origin = "https://evil.test"
			a, _ := key.Get(st.options)
			f.webauthnVerify(st.session, st.factorID, st.challenge, "request", a)
			key.Origin = origin
			a, _ = key.Get(st.options)
			return f.webauthnVerify(st.session, st.factorID, st.challenge, "request", a)
		}, 422, "mfa_factor_not_found", "", ""},
		{"signature counter gone back", func(f *fixture, key *webauthntest.Authenticator, st step) response {
			key.Counter = 0 // a copy of the key made at its registration
			a, _ := key.Get(st.options)
			return f.webauthnVerify(st.session, st.factorID, st.challenge, "request", a)
		}, 422, "mfa_verification_failed", "signature counter did not go up", "factor_clone_detected"},
		{"signature counter unchanged", func(f *fixture, key *webauthntest.Authenticator, st step) response {
			key.Counter--
			a, _ := key.Get(st.options)
			return f.webauthnVerify(st.session, st.factorID, st.challenge, "request", a)
		}, 422, "mfa_verification_failed", "signature counter did not go up", "factor_clone_detected"},
		{"a registration against a request challenge", func(f *fixture, key *webauthntest.Authenticator, st step) response {
			other := f.passkey()
			c, _ := other.Create(st.options)
			return f.webauthnVerify(st.session, st.factorID, st.challenge, "create", c)
		}, 422, "mfa_verification_failed", `the challenge asked for a \"request\" ceremony`, ""},
		{"a credential response that is not one", func(f *fixture, _ *webauthntest.Authenticator, st step) response {
			return f.webauthnVerify(st.session, st.factorID, st.challenge, "request", []byte(`{"id":"x"}`))
		}, 400, "validation_failed", "Invalid credential_response", ""},
		{"no webauthn", func(f *fixture, _ *webauthntest.Authenticator, st step) response {
			return f.do("POST", "/auth/v1/factors/"+st.factorID+"/verify", `{"challenge_id":"`+st.challenge+`","code":"123456"}`, bearer(st.session)...)
		}, 400, "validation_failed", "WebAuthn config required", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, sqlite())
			key := f.passkey()
			factorID, _ := f.enrollPasskey(f.signIn(), "Laptop", key)
			st := step{session: f.signIn(), factorID: factorID}
			st.challenge, st.options = f.webauthnChallenge(st.session, factorID, "request")
			r := tt.try(f, key, st)
			if r.status != tt.status || r.body["error_code"] != tt.code || !strings.Contains(r.raw, tt.text) {
				t.Errorf("= %d %s, want %d %s %q", r.status, r.raw, tt.status, tt.code, tt.text)
			}
			if tt.audit != "" {
				entries, err := f.db.ListAudit(context.Background(), time.Time{})
				if err != nil {
					t.Fatal(err)
				}
				found := false
				for _, e := range entries {
					found = found || e.Action == tt.audit && e.Detail != "" && strings.HasPrefix(e.Detail, "factor "+factorID)
				}
				if !found {
					t.Errorf("the audit log has no %s of the factor: %+v", tt.audit, entries)
				}
			}
			// Whatever was refused, the session stays aal1.
			if tt.status != 200 && tt.name != "replayed assertion" && tt.name != "replayed assertion on a new challenge" {
				if _, e := f.svc.Authorize(context.Background(), st.session["access_token"].(string)); !errors.Is(e, staff.ErrAAL2Required) {
					t.Errorf("Authorize after the refusal = %v, want insufficient_aal", e)
				}
			}
		})
	}
}

// TestWebAuthnRegistrationRefusals: a registration must be for this site's
// origin and relying party; a credential another factor holds is refused;
// a site whose origin cannot be a relying party offers no passkeys.
func TestWebAuthnRegistrationRefusals(t *testing.T) {
	tests := []struct {
		name       string
		tweak      func(f *fixture, key *webauthntest.Authenticator)
		status     int
		code, text string
	}{
		{"another origin", func(_ *fixture, key *webauthntest.Authenticator) { key.Origin = "https://studio.test.evil.test" },
			422, "mfa_verification_failed", "The passkey was refused"},
		{"another relying party", func(_ *fixture, key *webauthntest.Authenticator) { key.RPID = "evil.test" },
			422, "mfa_verification_failed", "The passkey was refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, sqlite())
			key := f.passkey()
			tt.tweak(f, key)
			session := f.signIn()
			r := f.do("POST", "/auth/v1/factors", `{"factor_type":"webauthn","friendly_name":"Laptop"}`, bearer(session)...)
			id := r.body["id"].(string)
			ch, opts := f.webauthnChallenge(session, id, "create")
			cred, _ := key.Create(opts)
			r = f.webauthnVerify(session, id, ch, "create", cred)
			if r.status != tt.status || r.body["error_code"] != tt.code || !strings.Contains(r.raw, tt.text) {
				t.Errorf("= %d %s, want %d %s %q", r.status, r.raw, tt.status, tt.code, tt.text)
			}
		})
	}

	t.Run("a credential another factor holds", func(t *testing.T) {
		f := newFixture(t, sqlite())
		key := f.passkey()
		_, aal2Session := f.enrollPasskey(f.signIn(), "Phone", key)
		copied := f.passkey()
		copied.CredentialID = key.CredentialID
		r := f.do("POST", "/auth/v1/factors", `{"factor_type":"webauthn","friendly_name":"Laptop"}`, bearer(aal2Session)...)
		id := r.body["id"].(string)
		ch, opts := f.webauthnChallenge(aal2Session, id, "create")
		cred, _ := copied.Create(opts)
		r = f.webauthnVerify(aal2Session, id, ch, "create", cred)
		if r.status != 422 || r.body["error_code"] != "mfa_verification_failed" || !strings.Contains(r.raw, "registered already") {
			t.Errorf("= %d %s", r.status, r.raw)
		}
		if r := f.webauthnVerify(aal2Session, id, ch, "create", cred); r.status != 422 || r.body["error_code"] != "mfa_factor_not_found" {
			t.Errorf("the challenge again = %d %s, want it used up", r.status, r.raw)
		}
	})

	t.Run("site origin an IP address", func(t *testing.T) {
		f := newFixture(t, sqlite(), func(c *auth.Config) { c.SiteOrigin = "http://127.0.0.1:8080" })
		r := f.do("POST", "/auth/v1/factors", `{"factor_type":"webauthn"}`, bearer(f.signIn())...)
		if r.status != 422 || r.body["error_code"] != "mfa_webauthn_enroll_not_enabled" {
			t.Errorf("enroll = %d %s", r.status, r.raw)
		}
	})
}

// TestWebAuthnVerifyRace: one assertion sent many times at once against its
// challenge raises a session once, on either engine (the factor's row is
// locked while its challenge and counter are read and written).
func TestWebAuthnVerifyRace(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			f := newFixture(t, engine)
			key := f.passkey()
			factorID, _ := f.enrollPasskey(f.signIn(), "Laptop", key)
			session := f.signIn()
			challenge, opts := f.webauthnChallenge(session, factorID, "request")
			assertion, err := key.Get(opts)
			if err != nil {
				t.Fatal(err)
			}
			rs := together(inFlight, func(int) response { return f.webauthnVerify(session, factorID, challenge, "request", assertion) })
			if n := countStatus(rs, 200); n != 1 {
				t.Errorf("the assertion was accepted %d times, want once", n)
			}
		})
	}
}
