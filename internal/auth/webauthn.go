package auth

import (
	"bytes"
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

	"studio/internal/auth/gotrue"
	"studio/internal/staff"
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

// libraryCredential is c as go-webauthn reads it.
func libraryCredential(c staff.WebAuthnCredential) webauthn.Credential {
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
func newWebAuthnCredential(factorID string, c *webauthn.Credential, now time.Time) *staff.WebAuthnCredential {
	transports := make([]string, len(c.Transport))
	for i, t := range c.Transport {
		transports[i] = string(t)
	}
	return &staff.WebAuthnCredential{FactorID: factorID, ID: c.ID, PublicKey: c.PublicKey, SignCount: c.Authenticator.SignCount,
		AAGUID: c.Authenticator.AAGUID, Transports: transports, AttestationType: c.AttestationType,
		AttestationFormat: c.AttestationFormat, Flags: byte(c.Flags.ProtocolValue()), CreatedAt: now}
}

// refused is a credential response the relying party refused, for why and
// the library's err (when not nil), whose details say more.
func refused(why string, err error) error {
	var pe *protocol.Error
	if errors.As(err, &pe) && pe.Details != "" {
		why += ": " + pe.Details
	} else if err != nil {
		why += ": " + err.Error()
	}
	return &staff.WebAuthnRefusal{Why: why}
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
func (rp relyingParty) refuseOtherParty(p webauthnParams) *gotrue.Error {
	if p.RPID != "" && p.RPID != rp.id {
		return gotrue.NewError(400, gotrue.CodeValidationFailed, "rpId must be this site's host name %q", rp.id)
	}
	for _, o := range p.RPOrigins {
		if strings.TrimSuffix(o, "/") != rp.origin {
			return gotrue.NewError(400, gotrue.CodeValidationFailed, "rpOrigins may only name this site's origin %q", rp.origin)
		}
	}
	return nil
}

// webauthnUser is a member of staff as go-webauthn sees them: the user
// handle is their id's 16 bytes.
type webauthnUser struct {
	user  staff.User
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
func (rp relyingParty) begin(u staff.User, f staff.Factor, userCreds []staff.WebAuthnCredential) (options any, c webauthnCeremony, err error) {
	var session *webauthn.SessionData
	if !f.Verified() {
		var exclude []protocol.CredentialDescriptor
		for _, cred := range userCreds {
			lib := libraryCredential(cred)
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
				mine = append(mine, libraryCredential(cred))
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
func (rp relyingParty) finish(u staff.User, factorID, kind string, parsed any, ceremony string, stored *staff.WebAuthnCredential, now time.Time) (*staff.WebAuthnCredential, error) {
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
	cred, err := rp.lib.ValidateLogin(webauthnUser{user: u, creds: []webauthn.Credential{libraryCredential(*stored)}}, c.Session,
		parsed.(*protocol.ParsedCredentialAssertionData))
	switch {
	case err != nil:
		return nil, refused("assertion refused", err)
	case cred.Authenticator.CloneWarning:
		return nil, staff.ErrClonedAuthenticator
	case !bytes.Equal(cred.ID, stored.ID):
		return nil, refused("another credential answered", nil)
	}
	updated := *stored
	updated.SignCount, updated.Flags, updated.UsedAt = cred.Authenticator.SignCount, byte(cred.Flags.ProtocolValue()), &now
	return &updated, nil
}
