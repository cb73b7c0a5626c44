package auth

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"
	"github.com/google/uuid"
)

// Passkeys (WebAuthn) as a second factor, GoTrue's factor_type "webauthn":
// a factor holds one public key credential. Its first challenge is a
// "create" ceremony (the browser's navigator.credentials.create), whose
// verification stores the credential and makes the factor verified; every
// later challenge is a "request" ceremony (navigator.credentials.get)
// answered with an assertion signed by that credential. The relying party
// is the site: its id is the host of Config.SiteOrigin and its one origin
// that origin, whatever a caller says.

// FactorWebAuthn is the factor type of a passkey; AMRWebAuthn the method a
// session raised by one gains in its amr, as GoTrue writes them.
const (
	FactorWebAuthn = "webauthn"
	AMRWebAuthn    = "mfa/webauthn"
)

// The WebAuthn ceremonies of a challenge.
const (
	ceremonyCreate  = "create"
	ceremonyRequest = "request"
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

// libraryCredential is c as go-webauthn reads it.
func (c WebAuthnCredential) libraryCredential() webauthn.Credential {
	transports := make([]protocol.AuthenticatorTransport, len(c.Transports))
	for i, t := range c.Transports {
		transports[i] = protocol.AuthenticatorTransport(t)
	}
	return webauthn.Credential{ID: c.ID, PublicKey: c.PublicKey, AttestationType: c.AttestationType,
		AttestationFormat: c.AttestationFormat, Transport: transports,
		Flags:         webauthn.NewCredentialFlags(protocol.AuthenticatorFlags(c.Flags)),
		Authenticator: webauthn.Authenticator{AAGUID: c.AAGUID, SignCount: c.SignCount}}
}

// newWebAuthnCredential is the credential go-webauthn registered, for factorID.
func newWebAuthnCredential(factorID string, c *webauthn.Credential, now time.Time) *WebAuthnCredential {
	transports := make([]string, len(c.Transport))
	for i, t := range c.Transport {
		transports[i] = string(t)
	}
	return &WebAuthnCredential{FactorID: factorID, ID: c.ID, PublicKey: c.PublicKey, SignCount: c.Authenticator.SignCount,
		AAGUID: c.Authenticator.AAGUID, Transports: transports, AttestationType: c.AttestationType,
		AttestationFormat: c.AttestationFormat, Flags: byte(c.Flags.ProtocolValue()), CreatedAt: now}
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

// refused is a credential response the relying party refused, for why and
// the library's err (when not nil), whose details say more.
func refused(why string, err error) error {
	var pe *protocol.Error
	if errors.As(err, &pe) && pe.Details != "" {
		why += ": " + pe.Details
	} else if err != nil {
		why += ": " + err.Error()
	}
	return &WebAuthnRefusal{Why: why}
}

// relyingParty is the site as a WebAuthn relying party.
type relyingParty struct {
	lib    *webauthn.WebAuthn
	id     string // the site's host name
	origin string // the site's origin, as a browser writes it
}

// newRelyingParty is the relying party of the site at siteOrigin; an error
// when it cannot be one (an IP address, which WebAuthn does not accept as a
// relying party id).
func newRelyingParty(siteOrigin string) (relyingParty, error) {
	u, err := url.Parse(strings.TrimSuffix(siteOrigin, "/"))
	if err != nil || u.Host == "" {
		return relyingParty{}, fmt.Errorf("site origin %q is not a URL", siteOrigin)
	}
	scheme, host, port := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname()), u.Port()
	if scheme == "https" && port == "443" || scheme == "http" && port == "80" {
		port = ""
	}
	origin := scheme + "://" + host
	if port != "" {
		origin = scheme + "://" + net.JoinHostPort(host, port)
	}
	lib, err := webauthn.New(&webauthn.Config{RPID: host, RPDisplayName: host, RPOrigins: []string{origin}})
	if err != nil {
		return relyingParty{}, err
	}
	return relyingParty{lib: lib, id: host, origin: origin}, nil
}

// webauthnParams are what the client says of the relying party with a
// challenge and a verification (supabase-js: the page's host name and
// origin). They are only checked: the site's are used.
type webauthnParams struct {
	RPID      string   `json:"rpId"`
	RPOrigins []string `json:"rpOrigins"`
}

// refuseOtherParty answers 400 when p names another relying party than rp.
func (rp relyingParty) refuseOtherParty(p webauthnParams) *AuthError {
	if p.RPID != "" && p.RPID != rp.id {
		return newError(400, codeValidationFailed, "rpId must be this site's host name %q", rp.id)
	}
	for _, o := range p.RPOrigins {
		if strings.TrimSuffix(o, "/") != rp.origin {
			return newError(400, codeValidationFailed, "rpOrigins may only name this site's origin %q", rp.origin)
		}
	}
	return nil
}

// webauthnUser is a member of staff as go-webauthn sees them: the user
// handle is their id's 16 bytes.
type webauthnUser struct {
	user  User
	creds []webauthn.Credential
}

func (w webauthnUser) WebAuthnID() []byte {
	id, err := uuid.Parse(w.user.ID)
	if err != nil {
		return []byte(w.user.ID)
	}
	return id[:]
}
func (w webauthnUser) WebAuthnName() string { return w.user.Email }
func (w webauthnUser) WebAuthnDisplayName() string {
	if n := w.user.Name(); n != "" {
		return n
	}
	return w.user.Email
}
func (w webauthnUser) WebAuthnCredentials() []webauthn.Credential { return w.creds }

// webauthnCeremony is what a challenge of a webauthn factor keeps for its
// verification: which ceremony, and go-webauthn's session data (the random
// challenge, the user handle, the credentials allowed).
type webauthnCeremony struct {
	Type    string               `json:"type"`
	Session webauthn.SessionData `json:"session"`
}

// begin starts the ceremony of a challenge of factor f of u: "create" for an
// unverified factor (excluding the credentials u has already, so one
// authenticator is not registered twice), "request" for the credential of a
// verified one. It returns the options for the browser and the ceremony to
// keep.
func (rp relyingParty) begin(u User, f Factor, userCreds []WebAuthnCredential) (options any, c webauthnCeremony, err error) {
	var session *webauthn.SessionData
	if !f.Verified() {
		var exclude []protocol.CredentialDescriptor
		for _, cred := range userCreds {
			lib := cred.libraryCredential()
			exclude = append(exclude, lib.Descriptor())
		}
		options, session, err = rp.lib.BeginRegistration(webauthnUser{user: u}, webauthn.WithExclusions(exclude),
			webauthn.WithAuthenticatorSelection(protocol.AuthenticatorSelection{
				ResidentKey: protocol.ResidentKeyRequirementPreferred, UserVerification: protocol.VerificationPreferred}),
			webauthn.WithConveyancePreference(protocol.PreferNoAttestation))
		c.Type = ceremonyCreate
	} else {
		var mine []webauthn.Credential
		for _, cred := range userCreds {
			if cred.FactorID == f.ID {
				mine = append(mine, cred.libraryCredential())
			}
		}
		if len(mine) == 0 {
			return nil, c, fmt.Errorf("verified webauthn factor %s has no credential", f.ID)
		}
		options, session, err = rp.lib.BeginLogin(webauthnUser{user: u, creds: mine}, webauthn.WithUserVerification(protocol.VerificationPreferred))
		c.Type = ceremonyRequest
	}
	if err != nil {
		return nil, c, err
	}
	c.Session = *session
	return options, c, nil
}

// parseResponse reads a credential response of the ceremony kind, as the
// browser's PublicKeyCredential.toJSON() writes it.
func parseResponse(kind string, raw json.RawMessage) (any, error) {
	if kind == ceremonyCreate {
		return protocol.ParseCredentialCreationResponseBytes(raw)
	}
	return protocol.ParseCredentialRequestResponseBytes(raw)
}

// finish verifies parsed, a response of ceremony kind for factor factorID of
// u, against the ceremony kept with the challenge and the factor's stored
// credential (nil before its registration): WebAuthnVerification.Check.
func (rp relyingParty) finish(u User, factorID, kind string, parsed any, ceremony string, stored *WebAuthnCredential, now time.Time) (*WebAuthnCredential, error) {
	var c webauthnCeremony
	if err := json.Unmarshal([]byte(ceremony), &c); err != nil || c.Type == "" {
		return nil, refused("the challenge is not a WebAuthn one", nil)
	}
	if c.Type != kind {
		return nil, refused(fmt.Sprintf("the challenge asked for a %q ceremony", c.Type), nil)
	}
	if kind == ceremonyCreate {
		if stored != nil {
			return nil, refused("the factor has its passkey already", nil)
		}
		cred, err := rp.lib.CreateCredential(webauthnUser{user: u}, c.Session, parsed.(*protocol.ParsedCredentialCreationData))
		if err != nil {
			return nil, refused("registration refused", err)
		}
		return newWebAuthnCredential(factorID, cred, now), nil
	}
	if stored == nil {
		return nil, refused("the factor has no passkey", nil)
	}
	cred, err := rp.lib.ValidateLogin(webauthnUser{user: u, creds: []webauthn.Credential{stored.libraryCredential()}}, c.Session,
		parsed.(*protocol.ParsedCredentialAssertionData))
	switch {
	case err != nil:
		return nil, refused("assertion refused", err)
	case cred.Authenticator.CloneWarning:
		return nil, ErrClonedAuthenticator
	case !bytes.Equal(cred.ID, stored.ID):
		return nil, refused("another credential answered", nil)
	}
	updated := *stored
	updated.SignCount, updated.Flags, updated.UsedAt = cred.Authenticator.SignCount, byte(cred.Flags.ProtocolValue()), &now
	return &updated, nil
}

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
