package store_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"studio/internal/notify"
	"studio/internal/staff"
	"studio/internal/store/storetest"
)

// TestFactorLockout: the store counts a factor's wrong codes, locks it out
// at the MaxFailures-th (logging it and queueing the mail once), and
// removing the factors (reset-mfa) takes their challenges and counts with
// them.
func TestFactorLockout(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			ctx := context.Background()
			cfg := engine.NewConfig(t)
			db := storetest.MustOpen(t, cfg)
			raw := openRaw(t, cfg)
			mustAddUser(t, db, member(adaID, "ada@studio.test"))
			factor := staff.Factor{ID: "00000000-0000-4000-8000-0000000000f1", UserID: adaID, FactorType: staff.FactorTOTP,
				Status: staff.FactorVerified, Secret: "sealed", CreatedAt: t0, UpdatedAt: t0}
			if err := db.CreateFactor(ctx, factor, t0, func([]staff.Factor) error { return nil }, staff.AuditEntry{}); err != nil {
				t.Fatal(err)
			}
			mail := &notify.Email{From: "site@studio.test", To: []string{"ada@studio.test"}, Subject: "Someone is guessing"}
			verify := func(i int, right bool) error {
				ch := staff.Challenge{ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", i), FactorID: factor.ID, IP: "192.0.2.1",
					CreatedAt: t0, ExpiresAt: t0.Add(time.Hour)}
				if err := db.CreateChallenge(ctx, ch, staff.AuditEntry{}); err != nil {
					t.Fatal(err)
				}
				_, _, err := db.VerifyFactor(ctx, staff.FactorVerification{UserID: adaID, FactorID: factor.ID, ChallengeID: ch.ID,
					IP: "192.0.2.1", Now: t0.Add(time.Duration(i) * time.Second), MaxTries: staff.MaxCodeTries,
					Check:   func(string, int64) (int64, bool, error) { return 1, right, nil },
					Failure: staff.AuditEntry{At: t0, Action: staff.ActionFactorFailed},
					Locked:  staff.AuditEntry{At: t0, Action: staff.ActionFactorLocked}, LockedMail: mail})
				return err
			}
			for i := range staff.MaxFailures {
				if err := verify(i, false); !errors.Is(err, staff.ErrVerificationFailed) {
					t.Fatalf("wrong code %d: err = %v", i+1, err)
				}
			}
			var locked *staff.FactorLockedError
			if err := verify(staff.MaxFailures, true); !errors.As(err, &locked) || !locked.Until.Equal(t0.Add(staff.FailureWindow)) {
				t.Fatalf("right code while locked out: err = %v, want locked out until %v", err, t0.Add(staff.FailureWindow))
			}
			queued, err := db.ClaimEmails(ctx, t0.Add(time.Hour), time.Minute, 10)
			if err != nil || len(queued) != 1 || queued[0].Email.Subject != mail.Subject {
				t.Errorf("queued mails = %+v, %v; want the one lockout mail", queued, err)
			}
			var lockedEntries int
			if err := raw.QueryRow(`SELECT COUNT(*) FROM auth_audit_log WHERE action = 'factor_locked_out'`).Scan(&lockedEntries); err != nil || lockedEntries != 1 {
				t.Errorf("lockout entries in the audit log = %d, %v; want 1", lockedEntries, err)
			}

			if n, err := db.ResetFactors(ctx, adaID, staff.AuditEntry{}); err != nil || n != 1 {
				t.Fatalf("ResetFactors = %d, %v", n, err)
			}
			for _, table := range []string{"auth_mfa_factors", "auth_mfa_challenges"} {
				var n int
				if err := raw.QueryRow(`SELECT COUNT(*) FROM ` + table).Scan(&n); err != nil || n != 0 {
					t.Errorf("%s after ResetFactors: %d rows, %v; want none", table, n, err)
				}
			}
		})
	}
}
