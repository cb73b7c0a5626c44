package staff

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"studio/internal/fault"
	"studio/internal/notify"
)

// Factor is a second factor of a user: a TOTP authenticator app, or a
// phone that challenges send a code to (phone.go), or a passkey
// (FactorWebAuthn: its credential is kept apart, WebAuthnCredential).
type Factor struct {
	ID               string // UUID
	UserID           string
	FriendlyName     string
	FactorType       string // totp or webauthn
	Status           string // unverified until its first code is verified
	Secret           string // the TOTP secret, sealed (SecretKey)
	LastUsedStep     int64  // the TOTP time step of the last code accepted; a code works once
	CreatedAt        time.Time
	UpdatedAt        time.Time
	LastChallengedAt *time.Time
	Phone            string // a phone factor's number, E.164 digits without the "+"
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
	// Tries are the wrong codes it got; VerifiedAt is set when a right one
	// used it up. The store keeps both.
	Tries      int
	VerifiedAt *time.Time
	// CodeHash is the hash of the code a phone factor's challenge sent
	// (ChallengeCodeHash); "" for other factors.
	CodeHash string
}

// FactorVerification is one TOTP code against a challenge, to raise a
// session to aal2: the rows the store's VerifyFactor reads, and the policy
// (Decide) that says what it writes.
type FactorVerification struct {
	UserID, FactorID, ChallengeID, SessionID, IP string
	Now                                          time.Time
	// MaxTries wrong codes end the challenge.
	MaxTries int
	// Check tells whether the code is right for the sealed secret and of a
	// time step after lastStep, and returns that step.
	Check func(sealedSecret string, lastStep int64) (step int64, ok bool, err error)
	// SentCode, for a phone factor, tells whether the code is the one whose
	// hash the challenge keeps; Check is then not used (checkCode).
	SentCode func(challenge Challenge) bool
	// AMR is the entry the session gains; RefreshHash its new refresh token's
	// hash (the old ones are revoked).
	AMR         AMREntry
	RefreshHash string
	// Audit is logged on success, Failure on a wrong code.
	Audit, Failure AuditEntry
	// Locked is logged, and LockedMail (when not nil) queued, with the wrong
	// code that locks the factor out (Failures.Add).
	Locked     AuditEntry
	LockedMail *notify.Email
}

// FactorAttempt is what VerifyFactor read for a FactorVerification, in its
// transaction: the factor (nil when the user has no such factor; its row is
// locked, so that the verifications of one factor run one after the other)
// with its wrong codes, the challenge (nil when the factor has no such
// challenge) and the session (nil when it ended).
type FactorAttempt struct {
	Factor    *Factor
	Failures  Failures
	Challenge *Challenge
	Session   *Session
}

// FactorDecision is what VerifyFactor writes, in the transaction that read
// the FactorAttempt.
type FactorDecision struct {
	// Refused is the answer when the code does not raise the session
	// (ErrChallengeNotFound, *FactorLockedError, …); nil when it does.
	Refused error
	// Challenge is what becomes of the challenge.
	Challenge ChallengeFate
	// Failures, when not nil, are the factor's wrong codes from now on.
	Failures *Failures
	// Raised, for a right code, is the session raised to aal2.
	Raised *RaisedSession
	// Audit is logged, in order; Mail, when not nil, queued.
	Audit []AuditEntry
	Mail  *notify.Email
}

// ChallengeFate is what a verification does to its challenge.
type ChallengeFate int

// The fates of a challenge.
const (
	ChallengeKept    ChallengeFate = iota
	ChallengeTried                 // a wrong code: one more try
	ChallengeDropped               // expired, or its last try
	ChallengeUsed                  // a right code: verified
)

// RaisedSession is a session raised to aal2 by a right code of a factor.
// The factor becomes verified, with Step its last used time step; the
// session gets a new refresh token of hash RefreshHash (the others are
// revoked); the user's sessions below aal2 end, and their other unverified
// factors of the same type go, as in GoTrue.
type RaisedSession struct {
	Session     Session
	Step        int64
	RefreshHash string
}

// Decide is the policy of a TOTP code against a challenge: the challenge
// must be the factor's, asked for from v.IP, not used nor expired (an
// expired one is dropped); a factor locked out checks no code; a wrong code
// counts against the challenge (the MaxTries-th drops it) and the factor
// (Failures: the one that locks it out is logged and mailed); a right
// one raises the session. An error (a secret that cannot be opened) undoes
// the transaction.
func (v FactorVerification) Decide(a FactorAttempt) (FactorDecision, error) {
	switch {
	case a.Factor == nil || a.Challenge == nil:
		return FactorDecision{Refused: ErrChallengeNotFound}, nil
	case a.Challenge.VerifiedAt != nil || a.Challenge.IP != v.IP:
		return FactorDecision{Refused: ErrChallengeIPMismatch}, nil
	case !v.Now.Before(a.Challenge.ExpiresAt):
		return FactorDecision{Refused: ErrChallengeExpired, Challenge: ChallengeDropped}, nil
	}
	if until := a.Failures.LockedUntil(v.Now); !until.IsZero() {
		return FactorDecision{Refused: &FactorLockedError{Until: until}}, nil
	}
	step, ok, err := v.checkCode(a)
	switch {
	case err != nil:
		return FactorDecision{}, err
	case !ok:
		return v.wrongCode(a), nil
	case a.Session == nil:
		return FactorDecision{Refused: ErrSessionNotFound}, nil
	}
	sess := *a.Session
	sess.AAL, sess.FactorID = AAL2, v.FactorID
	sess.AMR = append([]AMREntry{v.AMR}, slices.DeleteFunc(sess.AMR, func(e AMREntry) bool { return e.Method == v.AMR.Method })...)
	return FactorDecision{Challenge: ChallengeUsed, Raised: &RaisedSession{Session: sess, Step: step, RefreshHash: v.RefreshHash},
		Audit: []AuditEntry{v.Audit}}, nil
}

// wrongCode is the decision on a wrong code.
func (v FactorVerification) wrongCode(a FactorAttempt) FactorDecision {
	failures, locks := a.Failures.Add(v.Now)
	d := FactorDecision{Refused: ErrVerificationFailed, Challenge: ChallengeTried, Failures: &failures, Audit: []AuditEntry{v.Failure}}
	if a.Challenge.Tries+1 >= v.MaxTries {
		d.Challenge = ChallengeDropped
	}
	if locks {
		d.Audit = append(d.Audit, v.Locked)
		d.Mail = v.LockedMail
	}
	return d
}

// Someone who guesses TOTP codes is stopped per factor, whatever address
// they guess from: a factor that got MaxFailures wrong codes within
// FailureWindow refuses every code, right or wrong, until that window
// ends (Failures). The count is kept with the factor in the store, so it
// holds across servers, and goes with the factor (studio staff reset-mfa).

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
	ErrChallengeNotFound   = fault.New(fault.NotFound, "MFA challenge not found")
	ErrChallengeIPMismatch = errors.New("MFA challenge verified, or asked for from another address")
	ErrChallengeExpired    = errors.New("MFA challenge expired")
	ErrVerificationFailed  = errors.New("MFA code wrong or already used")
	ErrSessionPastTimebox  = errors.New("session older than the timebox")
	ErrSessionInactive     = errors.New("session not refreshed within the inactivity timeout")
	ErrFactorNameConflict  = fault.New(fault.Conflict, "factor friendly name taken")
	ErrTooManyFactors      = errors.New("too many factors")
	ErrFactorNeedsAAL2     = errors.New("aal2 required to enroll another factor")
)

// FactorPhone is the type of a phone second factor (GoTrue's name).
const FactorPhone = "phone"

// checkCode tells whether the code of v is right for a: a phone factor's
// is the one its challenge sent (SentCode), another's is checked by Check.
func (v FactorVerification) checkCode(a FactorAttempt) (step int64, ok bool, err error) {
	if a.Factor.FactorType != FactorPhone {
		return v.Check(a.Factor.Secret, a.Factor.LastUsedStep)
	}
	ok = a.Challenge.CodeHash != "" && v.SentCode != nil && v.SentCode(*a.Challenge)
	return a.Factor.LastUsedStep, ok, nil
}
