package auth

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/google/uuid"

	"studio/internal/api"
	"studio/internal/auth/gotrue"
	"studio/internal/staff"
)

// The /factors endpoints for a passkey (factor_type "webauthn"), as
// supabase-js 2.109 calls them: mfa.enroll, mfa.challenge and mfa.verify,
// which its mfa.webauthn.register and authenticate also use.

// ActionFactorCloned is the audit action of an assertion whose signature
// counter did not go up: a cloned authenticator, or a replay. It is refused.
const ActionFactorCloned = "factor_clone_detected"

// webauthnEnrollAnswer is the answer of POST /factors for a passkey.
type webauthnEnrollAnswer struct {
	ID           string `json:"id"`
	Type         string `json:"type"`
	FriendlyName string `json:"friendly_name"`
}

// enrollWebAuthn is POST /factors with factor_type "webauthn": a new,
// unverified factor whose first challenge registers a passkey. 422
// mfa_webauthn_enroll_not_enabled when the site cannot be a relying party.
func (s *Service) enrollWebAuthn(w http.ResponseWriter, r *http.Request, c caller, p enrollParams) {
	if _, err := newRelyingParty(s.cfg.SiteOrigin); err != nil {
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusUnprocessableEntity, gotrue.CodeMFAWebAuthnEnrollDisabled,
			"MFA enroll is disabled for WebAuthn: the site's origin cannot be a relying party (%v)", err))
		return
	}
	now := s.cfg.Now()
	f := staff.Factor{ID: uuid.NewString(), UserID: c.user.ID, FriendlyName: p.FriendlyName, FactorType: FactorWebAuthn,
		Status: staff.FactorUnverified, CreatedAt: now, UpdatedAt: now}
	s.createFactor(w, r, c, f, newFactorCheck(f.FriendlyName, c.session), webauthnEnrollAnswer{ID: f.ID, Type: FactorWebAuthn, FriendlyName: f.FriendlyName})
}

// webauthnChallengeAnswer is the answer of POST /factors/{id}/challenge for
// a passkey: credential_options is {publicKey: …}, what
// navigator.credentials.create (type "create") or get ("request") takes, in
// its JSON form.
type webauthnChallengeAnswer struct {
	ID        string `json:"id"`
	Type      string `json:"type"`
	ExpiresAt int64  `json:"expires_at"`
	WebAuthn  struct {
		Type              string `json:"type"`
		CredentialOptions any    `json:"credential_options"`
	} `json:"webauthn"`
}

// challengeWebAuthn is POST /factors/{id}/challenge for the caller's
// passkey factor f: a create ceremony while f is unverified, a request
// ceremony for its credential after. A body's webauthn.rpId and rpOrigins
// that name another relying party than the site are refused.
func (s *Service) challengeWebAuthn(w http.ResponseWriter, r *http.Request, c caller, f staff.Factor) {
	var p struct {
		WebAuthn webauthnParams `json:"webauthn"`
	}
	if !gotrue.DecodeBody(w, r, &p) {
		return
	}
	rp, ok := s.relyingParty(w, r)
	if !ok {
		return
	}
	if e := rp.refuseOtherParty(p.WebAuthn); e != nil {
		gotrue.WriteError(w, r, e)
		return
	}
	if !s.allow(w, r, s.limitVerify) {
		return
	}
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	creds, err := s.store.WebAuthnCredentials(ctx, c.user.ID)
	if err != nil {
		s.failed(w, r, "read passkeys", err)
		return
	}
	options, ceremony, err := rp.begin(c.user, f, creds)
	var kept []byte
	if err == nil {
		kept, err = json.Marshal(ceremony)
	}
	if err != nil {
		s.failed(w, r, "begin WebAuthn ceremony", err)
		return
	}
	now := s.cfg.Now()
	ch := staff.Challenge{ID: uuid.NewString(), FactorID: f.ID, IP: s.cfg.ClientIP(r), CreatedAt: now, ExpiresAt: now.Add(s.cfg.MFAChallengeExpiry)}
	switch err := s.store.CreateWebAuthnChallenge(ctx, ch, string(kept)); {
	case errors.Is(err, staff.ErrNotFound):
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusNotFound, gotrue.CodeMFAFactorNotFound, "Factor not found"))
	case err != nil:
		s.failed(w, r, "create challenge", err)
	default:
		a := webauthnChallengeAnswer{ID: ch.ID, Type: FactorWebAuthn, ExpiresAt: ch.ExpiresAt.Unix()}
		a.WebAuthn.Type, a.WebAuthn.CredentialOptions = ceremony.Type, options
		api.WriteJSON(w, http.StatusOK, a)
	}
}

// relyingParty is the site's relying party, or (false) the answer that
// passkeys cannot be verified on it.
func (s *Service) relyingParty(w http.ResponseWriter, r *http.Request) (relyingParty, bool) {
	rp, err := newRelyingParty(s.cfg.SiteOrigin)
	if err != nil {
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusUnprocessableEntity, gotrue.CodeMFAWebAuthnVerifyDisabled,
			"MFA verification is disabled for WebAuthn: the site's origin cannot be a relying party (%v)", err))
		return rp, false
	}
	return rp, true
}

// webauthnVerifyParams is the body of POST /factors/{id}/verify for a
// passkey.
type webauthnVerifyParams struct {
	ChallengeID string `json:"challenge_id"`
	WebAuthn    *struct {
		webauthnParams
		Type               string          `json:"type"`
		CredentialResponse json.RawMessage `json:"credential_response"`
	} `json:"webauthn"`
}

// verifyWebAuthn is POST /factors/{id}/verify for the caller's passkey
// factor f: the browser's credential response to the challenge's ceremony.
// A registration stores the credential and makes f verified; an assertion
// must be signed by that credential with a signature counter above the last
// one (else it is refused and the audit log says so). Either raises the
// session to aal2 (amr gains mfa/webauthn). A challenge is answered once,
// right or wrong.
func (s *Service) verifyWebAuthn(w http.ResponseWriter, r *http.Request, c caller, f staff.Factor) {
	var p webauthnVerifyParams
	if !gotrue.DecodeBody(w, r, &p) {
		return
	}
	var e *gotrue.Error
	switch {
	case uuid.Validate(p.ChallengeID) != nil:
		e = gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "challenge_id must be a UUID")
	case p.WebAuthn == nil:
		e = gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "WebAuthn config required")
	case p.WebAuthn.Type != ceremonyCreate && p.WebAuthn.Type != ceremonyRequest:
		e = gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "WebAuthn type must be create or request")
	case len(p.WebAuthn.CredentialResponse) == 0 || string(p.WebAuthn.CredentialResponse) == "null":
		e = gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "credential_response required")
	}
	if e != nil {
		gotrue.WriteError(w, r, e)
		return
	}
	rp, ok := s.relyingParty(w, r)
	if !ok {
		return
	}
	if e := rp.refuseOtherParty(p.WebAuthn.webauthnParams); e != nil {
		gotrue.WriteError(w, r, e)
		return
	}
	parsed, err := parseResponse(p.WebAuthn.Type, p.WebAuthn.CredentialResponse)
	if err != nil {
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "Invalid credential_response"))
		return
	}
	v, refresh, ok := s.beginFactorVerification(w, r, c, f, p.ChallengeID, AMRWebAuthn)
	if !ok {
		return
	}
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	v.MaxTries = 1
	sess, u, err := s.store.VerifyWebAuthnFactor(ctx, staff.WebAuthnVerification{
		FactorVerification: v,
		Check: func(ceremony string, stored *staff.WebAuthnCredential) (*staff.WebAuthnCredential, error) {
			return rp.finish(c.user, f.ID, p.WebAuthn.Type, parsed, ceremony, stored, v.Now)
		},
		Cloned: s.callerAudit(r, c, ActionFactorCloned, "factor "+f.ID+": the signature counter did not go up"),
	})
	var refusal *staff.WebAuthnRefusal
	if errors.As(err, &refusal) {
		if refusal == staff.ErrClonedAuthenticator {
			s.cfg.Logger.Warn("passkey refused: its signature counter did not go up (a cloned authenticator?)", "user", c.user.Email, "factor", f.ID)
		}
		err = gotrue.NewError(http.StatusUnprocessableEntity, gotrue.CodeMFAVerificationFailed, "The passkey was refused: %s", refusal.Why)
	}
	s.answerFactorVerified(w, r, p.ChallengeID, u, sess, refresh, err)
}
