package auth_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"studio/internal/notify"
	"studio/internal/staff"
)

// TestFactorDecide: the policy of a TOTP code against a challenge, without
// a store: what each attempt refuses, and what it writes.
func TestFactorDecide(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	mail := &notify.Email{Subject: "Someone is guessing"}
	entry := func(action string) staff.AuditEntry { return staff.AuditEntry{At: now, Action: action} }
	v := staff.FactorVerification{UserID: "u", FactorID: "f", ChallengeID: "c", SessionID: "s", IP: "192.0.2.1",
		Now: now, MaxTries: 3, AMR: staff.AMREntry{Method: "totp", Timestamp: now.Unix()}, RefreshHash: "rt",
		Audit: entry(staff.ActionFactorVerified), Failure: entry(staff.ActionFactorFailed),
		Locked: entry(staff.ActionFactorLocked), LockedMail: mail}
	factor := &staff.Factor{ID: "f", UserID: "u", Secret: "sealed", LastUsedStep: 7}
	challenge := func(change func(*staff.Challenge)) *staff.Challenge {
		c := &staff.Challenge{ID: "c", FactorID: "f", IP: v.IP, ExpiresAt: now.Add(time.Minute)}
		if change != nil {
			change(c)
		}
		return c
	}
	session := &staff.Session{ID: "s", UserID: "u", AAL: "aal1",
		AMR: []staff.AMREntry{{Method: "otp", Timestamp: 1}, {Method: "totp", Timestamp: 2}}}
	nearlyLocked := staff.Failures{Count: staff.MaxFailures - 1, Since: now.Add(-time.Minute)}
	locked := staff.Failures{Count: staff.MaxFailures, Since: now.Add(-time.Minute)}
	failures := func(n int, since time.Time) *staff.Failures {
		return &staff.Failures{Count: n, Since: since}
	}
	tests := []struct {
		name    string
		attempt staff.FactorAttempt
		right   bool
		want    staff.FactorDecision
	}{
		{"no such factor", staff.FactorAttempt{}, true, staff.FactorDecision{Refused: staff.ErrChallengeNotFound}},
		{"no such challenge", staff.FactorAttempt{Factor: factor}, true, staff.FactorDecision{Refused: staff.ErrChallengeNotFound}},
		{"challenge used", staff.FactorAttempt{Factor: factor, Challenge: challenge(func(c *staff.Challenge) { c.VerifiedAt = &now })}, true,
			staff.FactorDecision{Refused: staff.ErrChallengeIPMismatch}},
		{"another address", staff.FactorAttempt{Factor: factor, Challenge: challenge(func(c *staff.Challenge) { c.IP = "192.0.2.2" })}, true,
			staff.FactorDecision{Refused: staff.ErrChallengeIPMismatch}},
		{"challenge expired: dropped", staff.FactorAttempt{Factor: factor, Challenge: challenge(func(c *staff.Challenge) { c.ExpiresAt = now })}, true,
			staff.FactorDecision{Refused: staff.ErrChallengeExpired, Challenge: staff.ChallengeDropped}},
		{"locked out: no code checked", staff.FactorAttempt{Factor: factor, Failures: locked, Challenge: challenge(nil)}, true,
			staff.FactorDecision{Refused: &staff.FactorLockedError{Until: locked.Since.Add(staff.FailureWindow)}}},
		{"wrong code: counted", staff.FactorAttempt{Factor: factor, Challenge: challenge(nil), Session: session}, false,
			staff.FactorDecision{Refused: staff.ErrVerificationFailed, Challenge: staff.ChallengeTried, Failures: failures(1, now),
				Audit: []staff.AuditEntry{v.Failure}}},
		{"last try: dropped", staff.FactorAttempt{Factor: factor, Challenge: challenge(func(c *staff.Challenge) { c.Tries = 2 })}, false,
			staff.FactorDecision{Refused: staff.ErrVerificationFailed, Challenge: staff.ChallengeDropped, Failures: failures(1, now),
				Audit: []staff.AuditEntry{v.Failure}}},
		{"the wrong code that locks out: logged and mailed", staff.FactorAttempt{Factor: factor, Failures: nearlyLocked, Challenge: challenge(nil)}, false,
			staff.FactorDecision{Refused: staff.ErrVerificationFailed, Challenge: staff.ChallengeTried,
				Failures: failures(staff.MaxFailures, nearlyLocked.Since), Audit: []staff.AuditEntry{v.Failure, v.Locked}, Mail: mail}},
		{"session ended", staff.FactorAttempt{Factor: factor, Challenge: challenge(nil)}, true,
			staff.FactorDecision{Refused: staff.ErrSessionNotFound}},
		{"right code: raised", staff.FactorAttempt{Factor: factor, Challenge: challenge(nil), Session: session}, true,
			staff.FactorDecision{Challenge: staff.ChallengeUsed, Audit: []staff.AuditEntry{v.Audit}, Raised: &staff.RaisedSession{
				Session: staff.Session{ID: "s", UserID: "u", AAL: "aal2", FactorID: "f",
					AMR: []staff.AMREntry{v.AMR, {Method: "otp", Timestamp: 1}}},
				Step: 8, RefreshHash: "rt"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := v
			v.Check = func(secret string, lastStep int64) (int64, bool, error) {
				if secret != factor.Secret || lastStep != factor.LastUsedStep {
					t.Errorf("Check(%q, %d), want the factor's secret and last step", secret, lastStep)
				}
				return lastStep + 1, tt.right, nil
			}
			if tt.attempt.Session != nil { // Decide may change a copy, not the store's
				s := *tt.attempt.Session
				s.AMR = append([]staff.AMREntry(nil), s.AMR...)
				tt.attempt.Session = &s
			}
			got, err := v.Decide(tt.attempt)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, cmp.Comparer(func(a, b error) bool { return a == b || errors.Is(a, b) || a.Error() == b.Error() })); diff != "" {
				t.Errorf("Decide (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("a secret that cannot be opened undoes the transaction", func(t *testing.T) {
		v := v
		v.Check = func(string, int64) (int64, bool, error) { return 0, false, errors.New("sealed with another key") }
		if _, err := v.Decide(staff.FactorAttempt{Factor: factor, Challenge: challenge(nil)}); err == nil {
			t.Error("Decide err = nil, want the Check error")
		}
	})
}
