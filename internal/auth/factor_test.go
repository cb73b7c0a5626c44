package auth_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"studio/internal/auth"
	"studio/internal/notify"
)

// TestFactorDecide: the policy of a TOTP code against a challenge, without
// a store: what each attempt refuses, and what it writes.
func TestFactorDecide(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	mail := &notify.Email{Subject: "Someone is guessing"}
	entry := func(action string) auth.AuditEntry { return auth.AuditEntry{At: now, Action: action} }
	v := auth.FactorVerification{UserID: "u", FactorID: "f", ChallengeID: "c", SessionID: "s", IP: "192.0.2.1",
		Now: now, MaxTries: 3, AMR: auth.AMREntry{Method: "totp", Timestamp: now.Unix()}, RefreshHash: "rt",
		Audit: entry(auth.ActionFactorVerified), Failure: entry(auth.ActionFactorFailed),
		Locked: entry(auth.ActionFactorLocked), LockedMail: mail}
	factor := &auth.Factor{ID: "f", UserID: "u", Secret: "sealed", LastUsedStep: 7}
	challenge := func(change func(*auth.Challenge)) *auth.Challenge {
		c := &auth.Challenge{ID: "c", FactorID: "f", IP: v.IP, ExpiresAt: now.Add(time.Minute)}
		if change != nil {
			change(c)
		}
		return c
	}
	session := &auth.Session{ID: "s", UserID: "u", AAL: "aal1",
		AMR: []auth.AMREntry{{Method: "otp", Timestamp: 1}, {Method: "totp", Timestamp: 2}}}
	nearlyLocked := auth.FactorFailures{Count: auth.MaxFactorFailures - 1, Since: now.Add(-time.Minute)}
	locked := auth.FactorFailures{Count: auth.MaxFactorFailures, Since: now.Add(-time.Minute)}
	failures := func(n int, since time.Time) *auth.FactorFailures { return &auth.FactorFailures{Count: n, Since: since} }
	tests := []struct {
		name    string
		attempt auth.FactorAttempt
		right   bool
		want    auth.FactorDecision
	}{
		{"no such factor", auth.FactorAttempt{}, true, auth.FactorDecision{Refused: auth.ErrChallengeNotFound}},
		{"no such challenge", auth.FactorAttempt{Factor: factor}, true, auth.FactorDecision{Refused: auth.ErrChallengeNotFound}},
		{"challenge used", auth.FactorAttempt{Factor: factor, Challenge: challenge(func(c *auth.Challenge) { c.VerifiedAt = &now })}, true,
			auth.FactorDecision{Refused: auth.ErrChallengeIPMismatch}},
		{"another address", auth.FactorAttempt{Factor: factor, Challenge: challenge(func(c *auth.Challenge) { c.IP = "192.0.2.2" })}, true,
			auth.FactorDecision{Refused: auth.ErrChallengeIPMismatch}},
		{"challenge expired: dropped", auth.FactorAttempt{Factor: factor, Challenge: challenge(func(c *auth.Challenge) { c.ExpiresAt = now })}, true,
			auth.FactorDecision{Refused: auth.ErrChallengeExpired, Challenge: auth.ChallengeDropped}},
		{"locked out: no code checked", auth.FactorAttempt{Factor: factor, Failures: locked, Challenge: challenge(nil)}, true,
			auth.FactorDecision{Refused: &auth.FactorLockedError{Until: locked.Since.Add(auth.FactorFailureWindow)}}},
		{"wrong code: counted", auth.FactorAttempt{Factor: factor, Challenge: challenge(nil), Session: session}, false,
			auth.FactorDecision{Refused: auth.ErrVerificationFailed, Challenge: auth.ChallengeTried, Failures: failures(1, now),
				Audit: []auth.AuditEntry{v.Failure}}},
		{"last try: dropped", auth.FactorAttempt{Factor: factor, Challenge: challenge(func(c *auth.Challenge) { c.Tries = 2 })}, false,
			auth.FactorDecision{Refused: auth.ErrVerificationFailed, Challenge: auth.ChallengeDropped, Failures: failures(1, now),
				Audit: []auth.AuditEntry{v.Failure}}},
		{"the wrong code that locks out: logged and mailed", auth.FactorAttempt{Factor: factor, Failures: nearlyLocked, Challenge: challenge(nil)}, false,
			auth.FactorDecision{Refused: auth.ErrVerificationFailed, Challenge: auth.ChallengeTried,
				Failures: failures(auth.MaxFactorFailures, nearlyLocked.Since), Audit: []auth.AuditEntry{v.Failure, v.Locked}, Mail: mail}},
		{"session ended", auth.FactorAttempt{Factor: factor, Challenge: challenge(nil)}, true,
			auth.FactorDecision{Refused: auth.ErrSessionNotFound}},
		{"right code: raised", auth.FactorAttempt{Factor: factor, Challenge: challenge(nil), Session: session}, true,
			auth.FactorDecision{Challenge: auth.ChallengeUsed, Audit: []auth.AuditEntry{v.Audit}, Raised: &auth.RaisedSession{
				Session: auth.Session{ID: "s", UserID: "u", AAL: "aal2", FactorID: "f",
					AMR: []auth.AMREntry{v.AMR, {Method: "otp", Timestamp: 1}}},
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
				s.AMR = append([]auth.AMREntry(nil), s.AMR...)
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
		if _, err := v.Decide(auth.FactorAttempt{Factor: factor, Challenge: challenge(nil)}); err == nil {
			t.Error("Decide err = nil, want the Check error")
		}
	})
}
