package staff

import (
	"context"
	"errors"
	"time"
)

// WebAuthnCredential is the public key credential of a webauthn factor, as
// stored: what a later assertion is verified against.
type WebAuthnCredential struct {
	FactorID          string
	ID                []byte // the credential id the authenticator chose
	PublicKey         []byte // COSE_Key
	SignCount         uint32 // the signature counter of the last assertion (or the registration)
	AAGUID            []byte // the authenticator model; zeros when it does not say
	Transports        []string
	AttestationType   string
	AttestationFormat string
	Flags             byte // the authenticator data flags (backup eligibility, user verified), as the library keeps them
	CreatedAt         time.Time
	UsedAt            *time.Time
}

// WebAuthnVerification is a credential response against a challenge of a
// webauthn factor: FactorVerification's rows and rules (the challenge the
// factor's, from the same address, unused, unexpired; a right answer raises
// the session), with Check in place of the TOTP code's.
type WebAuthnVerification struct {
	FactorVerification
	// Check verifies the response against the challenge's ceremony (as
	// CreateWebAuthnChallenge stored it) and the factor's credential (nil
	// before its registration), and returns the credential as it is to be
	// stored from now on. A refused response is an error that wraps
	// ErrVerificationFailed (ErrClonedAuthenticator for a signature counter
	// that did not go up); any other error undoes the transaction.
	Check func(ceremony string, stored *WebAuthnCredential) (*WebAuthnCredential, error)
	// Cloned is logged, with Failure, when the counter did not go up.
	Cloned AuditEntry
}

// WebAuthnAttempt is what VerifyWebAuthnFactor read, in its transaction: the
// FactorAttempt, the challenge's ceremony and the factor's credential (nil
// for none yet).
type WebAuthnAttempt struct {
	FactorAttempt
	Ceremony   string
	Credential *WebAuthnCredential
}

// Decide is the policy of a credential response: FactorVerification.Decide
// with v.Check for the code. A refused response uses the challenge up (a
// ceremony is never answered twice) and, as it is no guess at a code, does
// not count towards locking the factor out. The credential returned, when
// not nil, is to be stored with the decision (a registration, or an
// assertion's new signature counter); only a raised session stores one.
func (v WebAuthnVerification) Decide(a WebAuthnAttempt) (FactorDecision, *WebAuthnCredential, error) {
	var checked *WebAuthnCredential
	var refusal error
	fv := v.FactorVerification
	fv.Check = func(string, int64) (int64, bool, error) {
		cred, err := v.Check(a.Ceremony, a.Credential)
		switch {
		case errors.Is(err, ErrVerificationFailed):
			refusal = err
			return 0, false, nil
		case err != nil:
			return 0, false, err
		}
		checked = cred
		return 0, true, nil
	}
	d, err := fv.Decide(a.FactorAttempt)
	switch {
	case err != nil:
		return FactorDecision{}, nil, err
	case refusal != nil:
		return v.Refuse(refusal), nil, nil
	case d.Raised == nil:
		return d, nil, nil
	}
	return d, checked, nil
}

// Refuse is the decision on a credential response refused for refusal (a
// *WebAuthnRefusal): the challenge is used up, and the failure logged (with
// Cloned for ErrClonedAuthenticator).
func (v WebAuthnVerification) Refuse(refusal error) FactorDecision {
	d := FactorDecision{Refused: refusal, Challenge: ChallengeDropped, Audit: []AuditEntry{v.Failure}}
	if errors.Is(refusal, ErrClonedAuthenticator) {
		d.Audit = append(d.Audit, v.Cloned)
	}
	return d
}

// WebAuthnRefusal is a credential response refused, and why (for the
// caller: nothing secret). It wraps ErrVerificationFailed.
type WebAuthnRefusal struct{ Why string }

func (e *WebAuthnRefusal) Error() string { return "passkey refused: " + e.Why }
func (e *WebAuthnRefusal) Unwrap() error { return ErrVerificationFailed }

// Refusals of passkeys that their callers tell apart.
var (
	// ErrClonedAuthenticator refuses an assertion whose signature counter is
	// not above the last one seen: another copy of the credential's private
	// key signs too (a cloned authenticator), or this one replays.
	ErrClonedAuthenticator = &WebAuthnRefusal{Why: "its signature counter did not go up: it may have been copied"}
	// ErrWebAuthnCredentialTaken refuses a registration of a credential that
	// another factor holds.
	ErrWebAuthnCredentialTaken = &WebAuthnRefusal{Why: "it is registered already"}
)

// WebAuthnStore is the part of Store that keeps passkeys.
type WebAuthnStore interface {
	// WebAuthnCredentials returns the credentials of the user's webauthn
	// factors.
	WebAuthnCredentials(ctx context.Context, userID string) ([]WebAuthnCredential, error)
	// CreateWebAuthnChallenge is CreateChallenge for a webauthn factor: c is
	// stored with ceremony, which its verification reads.
	CreateWebAuthnChallenge(ctx context.Context, c Challenge, ceremony string) error
	// VerifyWebAuthnFactor is VerifyFactor for a webauthn factor: in the same
	// transaction it reads the WebAuthnAttempt (the challenge's ceremony and
	// the factor's credential too), writes what v.Decide says with the
	// credential it returns, and returns the raised session with its user,
	// or the refusal (ErrWebAuthnCredentialTaken for a credential another
	// factor holds).
	VerifyWebAuthnFactor(ctx context.Context, v WebAuthnVerification) (Session, User, error)
}
