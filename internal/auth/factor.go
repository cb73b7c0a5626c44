package auth

import (
	"errors"
	"time"
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
