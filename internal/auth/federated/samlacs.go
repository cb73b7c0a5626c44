package federated

import (
	"context"
	"errors"
	"net/http"
	"time"

	"studio/internal/auth/gotrue"
	"studio/internal/staff"
)

// The assertion consumer service: where the IdP's browser POST brings the
// SAML response back (HTTP-POST binding).

// maxSAMLResponseBytes bounds the form posted to the ACS.
const maxSAMLResponseBytes = 1 << 20

// The refusals of the ACS, with GoTrue's codes and messages where it has
// them.
var (
	errSAMLIdPInitiated = gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed,
		"Sign-ins started at the identity provider are not accepted: start with Single sign-on on the sign-in page")
	errSAMLBadForm = gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed,
		"The SAML response must come by the HTTP-POST binding, with SAMLResponse and RelayState")
	errSAMLRelayStateNotFound = gotrue.NewError(http.StatusNotFound, gotrue.CodeSAMLRelayStateNotFound, "SAML RelayState does not exist, try logging in again?")
	errSAMLRelayStateExpired  = gotrue.NewError(http.StatusUnprocessableEntity, gotrue.CodeSAMLRelayStateExpired, "SAML RelayState has expired. Try logging in again?")
	errSAMLIdPNotFound        = gotrue.NewError(http.StatusNotFound, gotrue.CodeSAMLIdPNotFound, "A SAML connection has not been established with this Identity Provider")
	errSAMLInvalid            = gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "SAML Assertion is not valid")
	errSAMLNoUserID           = gotrue.NewError(http.StatusBadRequest, gotrue.CodeSAMLAssertionNoUserID,
		"SAML Assertion did not contain a persistent Subject Identifier attribute or Subject NameID uniquely identifying this user")
	errSAMLNoEmail = gotrue.NewError(http.StatusBadRequest, gotrue.CodeSAMLAssertionNoEmail, "SAML Assertion does not contain an email address")
)

// handleSAMLACS handles POST /sso/saml/acs. The response must answer the
// flow its RelayState names (InResponseTo), come from that flow's IdP with
// its signature (on the response or the assertion; never unsigned), be
// addressed to this SP (audience, recipient, destination), be within its
// time bounds and never have been used before. Its person is then matched
// to staff (federatedUser) and the browser goes back to the flow's
// redirect_to with the session or the error; never with a token on a
// refusal.
func (h *Handlers) handleSAMLACS(w http.ResponseWriter, r *http.Request) {
	if !h.host.Allow(w, r, LimitSSO) {
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxSAMLResponseBytes)
	if err := r.ParseForm(); err != nil || r.PostForm.Get("SAMLResponse") == "" || r.Form.Has("SAMLart") {
		h.refuseFlow(w, r, h.consoleFlow(), kindSAMLAudit, MethodSSO, federatedRefusal{reason: "form", e: errSAMLBadForm})
		return
	}
	relayState := r.PostForm.Get("RelayState")
	if relayState == "" {
		h.refuseFlow(w, r, h.consoleFlow(), kindSAMLAudit, MethodSSO, federatedRefusal{reason: "idp-initiated", e: errSAMLIdPInitiated})
		return
	}
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	now := h.cfg.Now()
	flow, err := h.store.ConsumeFlowState(ctx, staff.StateHash(relayState), now)
	switch {
	case errors.Is(err, staff.ErrNotFound):
		h.refuseFlow(w, r, h.consoleFlow(), kindSAMLAudit, MethodSSO, federatedRefusal{reason: "relay state not found", e: errSAMLRelayStateNotFound})
		return
	case errors.Is(err, staff.ErrFlowStateExpired):
		h.refuseFlow(w, r, flow, kindSAMLAudit, MethodSSO, federatedRefusal{reason: "relay state expired", e: errSAMLRelayStateExpired})
		return
	case err != nil:
		h.finishFlow(w, r, h.consoleFlow(), staff.User{}, MethodSSO, h.storeFailure("consume flow state", err))
		return
	}
	u, refusal := h.samlSignIn(ctx, r, flow, now)
	if refusal != nil {
		h.refuseFlow(w, r, flow, kindSAMLAudit, MethodSSO, *refusal)
		return
	}
	h.finishFlow(w, r, flow, u, MethodSSO, nil)
}

// samlSignIn checks the SAML response of r for flow and returns the member
// of staff it signs in.
func (h *Handlers) samlSignIn(ctx context.Context, r *http.Request, flow staff.FlowState, now time.Time) (staff.User, *federatedRefusal) {
	provider, err := h.store.FindProvider(ctx, flow.Provider)
	if err == nil && provider.Kind != staff.KindSAML {
		err = staff.ErrNotFound
	}
	switch {
	case errors.Is(err, staff.ErrNotFound): // removed since the sign-in started
		return staff.User{}, &federatedRefusal{reason: "provider removed", e: errSAMLIdPNotFound}
	case err != nil:
		return staff.User{}, &federatedRefusal{reason: "store", e: h.storeFailure("find provider", err)}
	}
	config, idp, err := h.samlSettings(r.Context(), provider)
	if err != nil {
		return staff.User{}, &federatedRefusal{reason: "metadata", e: h.storeFailure("SAML provider", err)}
	}
	sp, err := h.serviceProvider(ctx, idp, config.NameIDFormat, now)
	if err != nil {
		return staff.User{}, &federatedRefusal{reason: "store", e: h.storeFailure("SAML service provider", err)}
	}
	guard := &assertionGuard{ctx: ctx, store: h.store, issuer: idp.EntityID, now: now}
	sp.ReplayCache = guard
	assertion, err := sp.ParseResponse(r, []string{flow.RequestID})
	switch {
	case guard.failed != nil:
		return staff.User{}, &federatedRefusal{reason: "store", e: h.storeFailure("use SAML assertion", guard.failed)}
	case err != nil:
		return staff.User{}, &federatedRefusal{reason: SAMLRefusalReason(err), e: errSAMLInvalid}
	}
	subject := SAMLSubject(assertion)
	if subject == "" {
		return staff.User{}, &federatedRefusal{reason: "no subject", e: errSAMLNoUserID}
	}
	email := SAMLEmail(assertion)
	if email == "" {
		return staff.User{}, &federatedRefusal{reason: "no e-mail", e: errSAMLNoEmail}
	}
	// The IdP's address counts as verified, as GoTrue has it; it signs in
	// only someone of the provider's domains (federatedUser).
	return h.federatedUser(ctx, r, federatedPerson{Provider: provider, Subject: subject, Email: email, EmailVerified: true,
		Data: SAMLClaims(assertion, idp.EntityID, subject, email), Method: MethodSSO}, flow.LinkUserID)
}

// assertionGuard is crewjam's replay cache on the store: an assertion's ID
// (hashed with its issuer's entity id) is used once, until the assertion
// expires, across every server of the store.
type assertionGuard struct {
	ctx    context.Context
	store  staff.FederatedStore
	issuer string
	now    time.Time
	failed error // the store's failure, not a replay
}

// Consume implements saml.AssertionReplayCache.
func (g *assertionGuard) Consume(id string, expires time.Time) error {
	err := g.store.UseAssertion(g.ctx, staff.Hash("saml assertion", g.issuer, id), expires, g.now)
	if err != nil && !errors.Is(err, staff.ErrExists) {
		g.failed = err
	}
	return err
}
