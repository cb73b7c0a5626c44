package auth_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"studio/internal/auth"
	"studio/internal/staff"
	"studio/internal/store/storetest"
)

const graceEmail = "grace@studio.test"

// TestCodesLockout: MaxFailures wrong codes typed for one person, over
// two codes and both channels (e-mail and SMS), lock their codes out: the
// right code of a fresh code, mailed or sent, answers 429
// over_request_rate_limit with Retry-After until the hour that began with
// the first wrong code ends, then works. The person gets one mail per
// lockout and the audit log one codes_locked_out. Meanwhile the mail's
// link, their identity provider, their session's refresh and their TOTP
// factor still work. UnlockCodes (studio staff unlock) clears a lockout at
// once.
func TestCodesLockout(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			ctx := context.Background()
			f, peer := phoneFixture(t, engine, "+15005550006", func(c *auth.Config) { c.FailedCodeFloor = time.Microsecond })
			grace, err := f.db.FindUserByEmail(ctx, graceEmail)
			if err != nil {
				t.Fatal(err)
			}
			byMail := func(code string) response {
				return f.do("POST", "/auth/v1/verify", `{"type":"email","email":"`+graceEmail+`","token":"`+code+`"}`)
			}
			byPhone := func(code string) response {
				return f.do("POST", "/auth/v1/verify", `{"type":"sms","phone":"+`+gracePhone+`","token":"`+code+`"}`)
			}
			mailCode := func() (code, tokenHash string) {
				f.clock.Advance(auth.EmailInterval)
				return f.askCode(graceEmail)
			}
			phoneCode := func() string {
				f.clock.Advance(auth.SMSInterval)
				if r := f.do("POST", "/auth/v1/otp", `{"phone":"+`+gracePhone+`"}`); r.status != 200 {
					t.Fatalf("otp by phone = %d %s", r.status, r.raw)
				}
				return peer.code(f)
			}
			wrong := func(i int, try func(string) response) {
				t.Helper()
				if r := try("x"); r.status != 403 || r.body["error_code"] != "otp_expired" {
					t.Fatalf("wrong code %d = %d %s, want 403 otp_expired", i+1, r.status, r.raw)
				}
				f.clock.Advance(time.Minute)
			}
			wantLocked := func(what string, r response, windowStart time.Time) {
				t.Helper()
				retry := fmt.Sprint(int(windowStart.Add(staff.FailureWindow).Sub(f.clock.Now()).Seconds()))
				if r.status != 429 || r.body["error_code"] != "over_request_rate_limit" || r.header.Get("Retry-After") != retry {
					t.Errorf("%s while codes are locked out = %d %s Retry-After %q, want 429 over_request_rate_limit %s",
						what, r.status, r.raw, r.header.Get("Retry-After"), retry)
				}
			}

			// Grace signs in by mail and raises her session with TOTP.
			code, _ := mailCode()
			r := byMail(code)
			if r.status != 200 {
				t.Fatalf("sign in = %d %s", r.status, r.raw)
			}
			factorID, secret := f.enroll(r.body, "Phone")
			r = f.verifyFactor(r.body, factorID, f.totp(secret, 0))
			if r.status != 200 {
				t.Fatalf("verify TOTP = %d %s", r.status, r.raw)
			}
			session := r.body
			f.mail()

			// Someone guesses: five wrong tries kill the mailed code, five
			// more go to the code sent by SMS.
			mailCode()
			windowStart := f.clock.Now()
			for i := range staff.MaxCodeTries {
				wrong(i, byMail)
			}
			phoneCode()
			for i := staff.MaxCodeTries; i < staff.MaxFailures; i++ {
				wrong(i, byPhone)
			}
			mail := f.mail()
			if strings.Count(mail, fmt.Sprintf("were entered wrongly %d times", staff.MaxFailures)) != 1 ||
				!strings.Contains(mail, "studio staff unlock "+graceEmail) || !strings.Contains(mail, "passkey") {
				t.Errorf("want one mail that tells of the guessing, got:\n%s", mail)
			}
			if n := countAudit(t, f, staff.ActionCodesLocked); n != 1 {
				t.Errorf("%d %s in the audit log, want 1", n, staff.ActionCodesLocked)
			}

			code, tokenHash := mailCode()
			wantLocked("the right mailed code", byMail(code), windowStart)
			wantLocked("the right phone code", byPhone(phoneCode()), windowStart)

			// What cannot be guessed still signs Grace in.
			if r := f.do("POST", "/auth/v1/verify", `{"type":"magiclink","token_hash":"`+tokenHash+`"}`); r.status != 200 {
				t.Errorf("the mail's link while codes are locked out = %d %s", r.status, r.raw)
			}
			session = f.refresh(session)
			if r := f.verifyFactor(session, factorID, f.totp(secret, 0)); r.status != 200 {
				t.Errorf("TOTP while codes are locked out = %d %s", r.status, r.raw)
			}
			idp := newFakeIdP(t)
			f.addProvider(idp, "acme", nil, "studio.test")
			start := location(t, f.do("GET", "/auth/v1/authorize?provider=acme&redirect_to="+url.QueryEscape(origin+"/admin/"), ""))
			if s := sessionOf(t, f.callback(idp.grant(start, f.clock.Now(), "grace-at-acme", graceEmail, nil, nil))); s["access_token"] == "" {
				t.Error("no session from the identity provider while codes are locked out")
			}

			// The lockout ends an hour after the first wrong code.
			f.clock.Advance(windowStart.Add(staff.FailureWindow - time.Second - auth.EmailInterval).Sub(f.clock.Now()))
			code, _ = mailCode()
			wantLocked("a second before the hour ends", byMail(code), windowStart)
			f.clock.Advance(time.Second)
			if r := byMail(code); r.status != 200 {
				t.Errorf("the right code once the hour ended = %d %s", r.status, r.raw)
			}

			// A new lockout mails again; UnlockCodes clears it.
			windowStart = f.clock.Now()
			for i := range staff.MaxFailures {
				wrong(i, byMail)
			}
			if mail := f.mail(); strings.Count(mail, "were entered wrongly") != 1 {
				t.Errorf("second lockout: want one mail, got:\n%s", mail)
			}
			code, _ = mailCode()
			wantLocked("locked again", byMail(code), windowStart)
			if _, err := f.db.UnlockCodes(ctx, grace.ID, staff.AuditEntry{}); err != nil {
				t.Fatal(err)
			}
			if r := byMail(code); r.status != 200 {
				t.Errorf("the right code after unlock = %d %s", r.status, r.raw)
			}
		})
	}
}
