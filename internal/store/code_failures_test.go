package store_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"studio/internal/notify"
	"studio/internal/staff"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

// codesLockedMail is a CodeFailure.LockedMail for the tests.
func codesLockedMail(to string) *notify.Email {
	return &notify.Email{From: "site@studio.test", To: []string{to}, Subject: "Sign-in codes locked", Body: "codes of " + to}
}

// typedCodes tries codes typed for one person by e-mail and by phone.
type typedCodes struct {
	t     *testing.T
	db    *store.DB
	email string
	phone string
}

func (c typedCodes) failure() staff.CodeFailure {
	return staff.CodeFailure{Audit: staff.AuditEntry{At: t0, Action: staff.ActionLoginFailed, Email: c.email},
		Locked: staff.AuditEntry{At: t0, Action: staff.ActionCodesLocked, Email: c.email}, LockedMail: codesLockedMail}
}

// byEmail types the code hash (its match) with the address at at.
func (c typedCodes) byEmail(hash string, at time.Time) error {
	_, err := c.db.ConsumeCodeByEmail(context.Background(), c.email, staff.PurposeSignIn, at, staff.MaxCodeTries,
		func(_, stored string) bool { return stored == hash }, c.failure(), nil)
	return err
}

// byPhone types the code hash with the phone number at at.
func (c typedCodes) byPhone(hash string, at time.Time) error {
	_, err := c.db.ConsumeCodeByPhone(context.Background(), c.phone, staff.PurposeSMS, at, staff.MaxCodeTries,
		func(_, stored string) bool { return stored == hash }, c.failure(), nil)
	return err
}

// lockOut types MaxFailures wrong codes from at on, a second apart,
// by e-mail and by phone in turn.
func (c typedCodes) lockOut(at time.Time) {
	c.t.Helper()
	for i := range staff.MaxFailures {
		try := c.byEmail
		if i%2 == 1 && c.phone != "" {
			try = c.byPhone
		}
		if err := try("wrong", at.Add(time.Duration(i)*time.Second)); !errors.Is(err, staff.ErrCodeInvalid) {
			c.t.Fatalf("wrong code %d: err = %v, want ErrCodeInvalid", i+1, err)
		}
	}
}

// newCode gives the user a live code of purpose, of hash "right" and link
// link, made at at.
func newCode(t *testing.T, db *store.DB, userID, purpose, link string, at time.Time) {
	t.Helper()
	c := code(userID, "right", link, at)
	c.Purpose = purpose
	if err := db.CreateCode(context.Background(), c, staff.AuditEntry{}); err != nil {
		t.Fatal(err)
	}
}

// wantLocked checks that err is the refusal of locked out codes until until.
func wantLocked(t *testing.T, what string, err error, until time.Time) {
	t.Helper()
	var locked *staff.CodesLockedError
	if !errors.As(err, &locked) || !locked.Until.Equal(until) {
		t.Errorf("%s: err = %v, want codes locked out until %v", what, err, until)
	}
}

// TestCodeLockout: the store counts the wrong codes typed for a person by
// e-mail and by phone together; at the MaxFailures-th within the window
// it logs codes_locked_out and queues one mail to them, and refuses every
// code typed for them, the right one too, until the window ends. The mail's
// link still works. An address that is no one's is counted and locked alike,
// with no mail. UnlockCodes and ResetFactors clear the count; a later mail's
// claim prunes the counts whose window ended.
func TestCodeLockout(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			ctx := context.Background()
			cfg := engine.NewConfig(t)
			db := storetest.MustOpen(t, cfg)
			raw := openRaw(t, cfg)
			ada := member(adaID, "ada@studio.test")
			ada.Phone = "447700900123"
			mustAddUser(t, db, ada)
			codes := typedCodes{t, db, ada.Email, ada.Phone}
			count := func(q string, args ...any) int {
				t.Helper()
				var n int
				if err := raw.QueryRow(q, args...).Scan(&n); err != nil {
					t.Fatal(err)
				}
				return n
			}
			auditCount := func(action string) int {
				return count(`SELECT COUNT(*) FROM auth_audit_log WHERE action = '` + action + `'`)
			}

			codes.lockOut(t0)
			end := t0.Add(staff.FailureWindow)
			newCode(t, db, adaID, staff.PurposeSignIn, "link1", end.Add(-time.Minute))
			newCode(t, db, adaID, staff.PurposeSMS, "link2", end.Add(-time.Minute))
			wantLocked(t, "the right code by e-mail", codes.byEmail("right", end.Add(-time.Second)), end)
			wantLocked(t, "the right code by phone", codes.byPhone("right", end.Add(-time.Second)), end)
			queued, err := db.ClaimEmails(ctx, end, time.Minute, 10)
			if err != nil || len(queued) != 1 || queued[0].Email.Subject != "Sign-in codes locked" ||
				strings.Join(queued[0].Email.To, ",") != ada.Email || queued[0].Email.Body != "codes of "+ada.Email {
				t.Errorf("queued mails = %+v, %v; want the one lockout mail, to Ada", queued, err)
			}
			if n := count(`SELECT COUNT(*) FROM auth_audit_log WHERE action = 'codes_locked_out' AND user_id = '` + adaID + `'`); n != 1 {
				t.Errorf("%d codes_locked_out entries of Ada, want 1", n)
			}
			if n := count(`SELECT COUNT(*) FROM auth_audit_log WHERE action = 'login_failed' AND detail = 'codes locked out'`); n != 2 {
				t.Errorf("%d refused tries logged as locked out, want 2", n)
			}
			if id, err := db.ConsumeLink(ctx, "link1", staff.PurposeSignIn, end.Add(-time.Second), staff.MaxCodeTries, staff.AuditEntry{}, nil); err != nil || id.ID != adaID {
				t.Errorf("the mail's link while codes are locked out = %q, %v; want Ada", id.ID, err)
			}
			if err := codes.byPhone("right", end); err != nil {
				t.Errorf("the right code once the window ended: %v", err)
			}

			// An address that is no one's: counted and locked alike, no mail.
			eve := typedCodes{t, db, "eve@studio.test", ""}
			eve.lockOut(t0)
			wantLocked(t, "a code for eve", eve.byEmail("right", t0.Add(time.Minute)), end)
			if n := count(`SELECT COUNT(*) FROM outbox`); n != 1 {
				t.Errorf("%d mails queued, want only Ada's", n)
			}
			if n := auditCount(staff.ActionCodesLocked); n != 2 {
				t.Errorf("%d codes_locked_out entries, want 2 (Ada, eve)", n)
			}

			// Unlock and reset-mfa clear the count at once.
			at := end.Add(time.Hour)
			codes.lockOut(at)
			newCode(t, db, adaID, staff.PurposeSignIn, "link3", at)
			wantLocked(t, "locked again", codes.byEmail("right", at.Add(time.Minute)), at.Add(staff.FailureWindow))
			f, err := db.UnlockCodes(ctx, adaID, staff.AuditEntry{At: at, Action: staff.ActionCodesUnlocked})
			if err != nil || f.Count != staff.MaxFailures || !f.Since.Equal(at) {
				t.Errorf("UnlockCodes = %+v, %v; want %d wrong codes since %v", f, err, staff.MaxFailures, at)
			}
			if err := codes.byEmail("right", at.Add(time.Minute)); err != nil {
				t.Errorf("the right code after UnlockCodes: %v", err)
			}
			if n := auditCount(staff.ActionCodesUnlocked); n != 1 {
				t.Errorf("%d codes_unlocked entries, want 1", n)
			}
			at = at.Add(time.Minute)
			codes.lockOut(at)
			newCode(t, db, adaID, staff.PurposeSignIn, "link4", at)
			if _, err := db.ResetFactors(ctx, adaID, staff.AuditEntry{}); err != nil {
				t.Fatal(err)
			}
			if err := codes.byEmail("right", at.Add(time.Minute)); err != nil {
				t.Errorf("the right code after ResetFactors: %v", err)
			}
			if mails := count(`SELECT COUNT(*) FROM outbox`); mails != 3 {
				t.Errorf("%d mails queued, want one per lockout (3)", mails)
			}

			// Eve's window ended long ago: the next claim of a mail prunes it.
			if n := count(`SELECT COUNT(*) FROM auth_code_failures WHERE person = '` + staff.AddressHash("eve@studio.test") + `'`); n != 1 {
				t.Fatalf("eve's count: %d rows, want 1", n)
			}
			if _, err := db.ClaimEmailSend(ctx, "someone", at, time.Minute, nil, nil, staff.AuditEntry{}); err != nil {
				t.Fatal(err)
			}
			if n := count(`SELECT COUNT(*) FROM auth_code_failures`); n != 0 {
				t.Errorf("%d counts left after the prune, want 0", n)
			}
		})
	}
}

// TestCodeFailuresWindow: the window begins with its first wrong code; a
// wrong code after it ends begins a new one, so MaxFailures spread over
// more than the window lock nothing.
func TestCodeFailuresWindow(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			db := engine.New(t)
			mustAddUser(t, db, member(adaID, "ada@studio.test"))
			codes := typedCodes{t, db, "ada@studio.test", ""}
			spread := staff.FailureWindow / (staff.MaxFailures - 1)
			for i := range staff.MaxFailures {
				if err := codes.byEmail("wrong", t0.Add(time.Duration(i)*spread)); !errors.Is(err, staff.ErrCodeInvalid) {
					t.Fatalf("wrong code %d: err = %v", i+1, err)
				}
			}
			newCode(t, db, adaID, staff.PurposeSignIn, "link", t0.Add(staff.FailureWindow))
			if err := codes.byEmail("right", t0.Add(staff.FailureWindow)); err != nil {
				t.Errorf("right code after %d wrong ones over more than the window: %v", staff.MaxFailures, err)
			}
		})
	}
}

// TestCodeFailuresRace: wrong codes typed for one person at the same
// instant, from as many connections, are each counted once: exactly one of
// them locks the codes out (one audit entry, one mail).
func TestCodeFailuresRace(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			cfg := engine.NewConfig(t)
			db := storetest.MustOpen(t, cfg)
			mustAddUser(t, db, member(adaID, "ada@studio.test"))
			codes := typedCodes{t, db, "ada@studio.test", ""}
			together(inFlight, func() { _ = codes.byEmail("wrong", t0) })
			var failed, locked, mails int
			raw := openRaw(t, cfg)
			if err := raw.QueryRow(`SELECT failed_codes FROM auth_code_failures`).Scan(&failed); err != nil {
				t.Fatal(err)
			}
			if err := raw.QueryRow(`SELECT COUNT(*) FROM auth_audit_log WHERE action = 'codes_locked_out'`).Scan(&locked); err != nil {
				t.Fatal(err)
			}
			if err := raw.QueryRow(`SELECT COUNT(*) FROM outbox`).Scan(&mails); err != nil {
				t.Fatal(err)
			}
			if failed < staff.MaxFailures || failed > inFlight || locked != 1 || mails != 1 {
				t.Errorf("%d simultaneous wrong codes: count %d, %d lockout entries, %d mails; want at least %d, 1, 1",
					inFlight, failed, locked, mails, staff.MaxFailures)
			}
		})
	}
}
