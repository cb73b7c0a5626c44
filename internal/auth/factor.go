package auth

import (
	"errors"
	"fmt"
	"time"

	"studio/internal/notify"
)

// Factor is a second factor of a user: a TOTP authenticator app.
type Factor struct {
	ID               string // UUID
	UserID           string
	FriendlyName     string
	FactorType       string // totp
	Status           string // unverified until its first code is verified
	Secret           string // the TOTP secret, sealed (SecretKey)
	LastUsedStep     int64  // the TOTP time step of the last code accepted; a code works once
	CreatedAt        time.Time
	UpdatedAt        time.Time
	LastChallengedAt *time.Time
}

// Factor types and states, GoTrue's names.
const (
	FactorTOTP       = "totp"
	FactorUnverified = "unverified"
	FactorVerified   = "verified"
)

// Verified reports whether the factor's first code was verified.
func (f Factor) Verified() bool { return f.Status == FactorVerified }

// Challenge is a request to verify a factor; a code is verified against one
// challenge, once, from the address that asked for it, before it expires.
type Challenge struct {
	ID        string // UUID
	FactorID  string
	IP        string
	CreatedAt time.Time
	ExpiresAt time.Time
}

// FactorVerification is what VerifyFactor needs to raise a session to aal2
// with a TOTP code.
type FactorVerification struct {
	UserID, FactorID, ChallengeID, SessionID, IP string
	Now                                          time.Time
	// MaxTries wrong codes end the challenge.
	MaxTries int
	// Check tells whether the code is right for the sealed secret and of a
	// time step after lastStep, and returns that step.
	Check func(sealedSecret string, lastStep int64) (step int64, ok bool, err error)
	// AMR is the entry the session gains; RefreshHash its new refresh token's
	// hash (the old ones are revoked).
	AMR         AMREntry
	RefreshHash string
	// Audit is logged on success, Failure on a wrong code.
	Audit, Failure AuditEntry
	// Locked is logged, and LockedMail (when not nil) queued, with the wrong
	// code that locks the factor out (FactorFailures.Add).
	Locked     AuditEntry
	LockedMail *notify.Email
}

// Someone who guesses TOTP codes is stopped per factor, whatever address
// they guess from: a factor that got MaxFactorFailures wrong codes within
// FactorFailureWindow refuses every code, right or wrong, until that window
// ends. The window begins with its first wrong code. The count is kept with
// the factor in the store, so it holds across servers, and goes with the
// factor (studio staff reset-mfa).
const (
	MaxFactorFailures   = 10
	FactorFailureWindow = time.Hour
)

// FactorFailures are the wrong codes a factor got in its current window.
type FactorFailures struct {
	Count int
	Since time.Time // the window's first wrong code; zero for none
}

// LockedUntil returns, when the factor is locked out at now, the time it
// accepts codes again; otherwise the zero time.
func (f FactorFailures) LockedUntil(now time.Time) time.Time {
	end := f.Since.Add(FactorFailureWindow)
	if f.Count >= MaxFactorFailures && now.Before(end) {
		return end
	}
	return time.Time{}
}

// Add returns the failures once a wrong code at now is counted (in a new
// window when the last one ended), and whether that code locks the factor
// out.
func (f FactorFailures) Add(now time.Time) (FactorFailures, bool) {
	if !now.Before(f.Since.Add(FactorFailureWindow)) {
		f = FactorFailures{Since: now}
	}
	f.Count++
	return f, f.Count == MaxFactorFailures
}

// FactorLockedError is VerifyFactor's answer while the factor is locked
// out: no code was checked.
type FactorLockedError struct {
	Until time.Time
}

func (e *FactorLockedError) Error() string {
	return fmt.Sprintf("MFA factor locked out until %s: too many wrong codes", e.Until.Format(time.RFC3339))
}

// Errors of the factor methods of the store.
var (
	ErrChallengeNotFound   = errors.New("MFA challenge not found")
	ErrChallengeIPMismatch = errors.New("MFA challenge verified, or asked for from another address")
	ErrChallengeExpired    = errors.New("MFA challenge expired")
	ErrVerificationFailed  = errors.New("MFA code wrong or already used")
	ErrSessionPastTimebox  = errors.New("session older than the timebox")
	ErrSessionInactive     = errors.New("session not refreshed within the inactivity timeout")
	ErrFactorNameConflict  = errors.New("factor friendly name taken")
	ErrTooManyFactors      = errors.New("too many factors")
	ErrFactorNeedsAAL2     = errors.New("aal2 required to enroll another factor")
)
