package auth

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"studio/internal/staff"
	"time"

	"github.com/crewjam/saml"
)

// The assertion consumer service: where the IdP's browser POST brings the
// SAML response back (HTTP-POST binding).

// maxSAMLResponseBytes bounds the form posted to the ACS.
const maxSAMLResponseBytes = 1 << 20

// The refusals of the ACS, with GoTrue's codes and messages where it has
// them.
var (
	errSAMLIdPInitiated = newError(http.StatusBadRequest, codeValidationFailed,
		"Sign-ins started at the identity provider are not accepted: start with Single sign-on on the sign-in page")
	errSAMLBadForm = newError(http.StatusBadRequest, codeValidationFailed,
		"The SAML response must come by the HTTP-POST binding, with SAMLResponse and RelayState")
	errSAMLRelayStateNotFound = newError(http.StatusNotFound, codeSAMLRelayStateNotFound, "SAML RelayState does not exist, try logging in again?")
	errSAMLRelayStateExpired  = newError(http.StatusUnprocessableEntity, codeSAMLRelayStateExpired, "SAML RelayState has expired. Try logging in again?")
	errSAMLIdPNotFound        = newError(http.StatusNotFound, codeSAMLIdPNotFound, "A SAML connection has not been established with this Identity Provider")
	errSAMLInvalid            = newError(http.StatusBadRequest, codeValidationFailed, "SAML Assertion is not valid")
	errSAMLNoUserID           = newError(http.StatusBadRequest, codeSAMLAssertionNoUserID,
		"SAML Assertion did not contain a persistent Subject Identifier attribute or Subject NameID uniquely identifying this user")
	errSAMLNoEmail = newError(http.StatusBadRequest, codeSAMLAssertionNoEmail, "SAML Assertion does not contain an email address")
)

// handleSAMLACS handles POST /sso/saml/acs. The response must answer the
// flow its RelayState names (InResponseTo), come from that flow's IdP with
// its signature (on the response or the assertion; never unsigned), be
// addressed to this SP (audience, recipient, destination), be within its
// time bounds and never have been used before. Its person is then matched
// to staff (federatedUser) and the browser goes back to the flow's
// redirect_to with the session or the error; never with a token on a
// refusal.
func (s *Service) handleSAMLACS(w http.ResponseWriter, r *http.Request) {
	if !s.allow(w, r, s.limitSSO) {
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxSAMLResponseBytes)
	if err := r.ParseForm(); err != nil || r.PostForm.Get("SAMLResponse") == "" || r.Form.Has("SAMLart") {
		s.refuseFlow(w, r, s.consoleFlow(), kindSAMLAudit, MethodSSO, federatedRefusal{reason: "form", e: errSAMLBadForm})
		return
	}
	relayState := r.PostForm.Get("RelayState")
	if relayState == "" {
		s.refuseFlow(w, r, s.consoleFlow(), kindSAMLAudit, MethodSSO, federatedRefusal{reason: "idp-initiated", e: errSAMLIdPInitiated})
		return
	}
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	now := s.cfg.Now()
	flow, err := s.store.ConsumeFlowState(ctx, staff.StateHash(relayState), now)
	switch {
	case errors.Is(err, staff.ErrNotFound):
		s.refuseFlow(w, r, s.consoleFlow(), kindSAMLAudit, MethodSSO, federatedRefusal{reason: "relay state not found", e: errSAMLRelayStateNotFound})
		return
	case errors.Is(err, staff.ErrFlowStateExpired):
		s.refuseFlow(w, r, flow, kindSAMLAudit, MethodSSO, federatedRefusal{reason: "relay state expired", e: errSAMLRelayStateExpired})
		return
	case err != nil:
		s.finishFlow(w, r, s.consoleFlow(), staff.User{}, MethodSSO, s.storeFailure("consume flow state", err))
		return
	}
	u, refusal := s.samlSignIn(ctx, r, flow, now)
	if refusal != nil {
		s.refuseFlow(w, r, flow, kindSAMLAudit, MethodSSO, *refusal)
		return
	}
	s.finishFlow(w, r, flow, u, MethodSSO, nil)
}

// samlSignIn checks the SAML response of r for flow and returns the member
// of staff it signs in.
func (s *Service) samlSignIn(ctx context.Context, r *http.Request, flow staff.FlowState, now time.Time) (staff.User, *federatedRefusal) {
	provider, err := s.store.FindProvider(ctx, flow.Provider)
	if err == nil && provider.Kind != staff.KindSAML {
		err = staff.ErrNotFound
	}
	switch {
	case errors.Is(err, staff.ErrNotFound): // removed since the sign-in started
		return staff.User{}, &federatedRefusal{reason: "provider removed", e: errSAMLIdPNotFound}
	case err != nil:
		return staff.User{}, &federatedRefusal{reason: "store", e: s.storeFailure("find provider", err)}
	}
	config, idp, err := s.samlSettings(r.Context(), provider)
	if err != nil {
		return staff.User{}, &federatedRefusal{reason: "metadata", e: s.storeFailure("SAML provider", err)}
	}
	sp, err := s.serviceProvider(ctx, idp, config.NameIDFormat, now)
	if err != nil {
		return staff.User{}, &federatedRefusal{reason: "store", e: s.storeFailure("SAML service provider", err)}
	}
	guard := &assertionGuard{ctx: ctx, store: s.store, issuer: idp.EntityID, now: now}
	sp.ReplayCache = guard
	assertion, err := sp.ParseResponse(r, []string{flow.RequestID})
	switch {
	case guard.failed != nil:
		return staff.User{}, &federatedRefusal{reason: "store", e: s.storeFailure("use SAML assertion", guard.failed)}
	case err != nil:
		return staff.User{}, &federatedRefusal{reason: samlRefusalReason(err), e: errSAMLInvalid}
	}
	subject := samlSubject(assertion)
	if subject == "" {
		return staff.User{}, &federatedRefusal{reason: "no subject", e: errSAMLNoUserID}
	}
	email := samlEmail(assertion)
	if email == "" {
		return staff.User{}, &federatedRefusal{reason: "no e-mail", e: errSAMLNoEmail}
	}
	// The IdP's address counts as verified, as GoTrue has it; it signs in
	// only someone of the provider's domains (federatedUser).
	return s.federatedUser(ctx, r, federatedPerson{Provider: provider, Subject: subject, Email: email, EmailVerified: true,
		Data: samlClaims(assertion, idp.EntityID, subject, email), Method: MethodSSO}, flow.LinkUserID)
}

// samlRefusalReason names why crewjam refused a response, for the log.
func samlRefusalReason(err error) string {
	for _, c := range []struct {
		kind   error
		reason string
	}{
		{staff.ErrExists, "replayed"},
		{saml.ErrInvalidSignature, "signature"},
		{saml.ErrExpired, "expired"},
		{saml.ErrNotYetValid, "not yet valid"},
		{saml.ErrAudienceMismatch, "audience"},
		{saml.ErrDestinationMismatch, "destination"},
		{saml.ErrRequestIDMismatch, "in response to"},
		{saml.ErrIssuerMismatch, "issuer"},
		{saml.ErrMalformedMessage, "malformed"},
		{saml.ErrMissingElement, "missing element"},
		{saml.ErrUnsupported, "unsupported"},
	} {
		if errors.Is(err, c.kind) {
			return c.reason
		}
	}
	var status saml.ErrBadStatus
	if errors.As(err, &status) {
		return "status " + status.Status
	}
	why := err.Error()
	var invalid *saml.InvalidResponseError
	if errors.As(err, &invalid) && invalid.PrivateErr != nil {
		why = invalid.PrivateErr.Error()
	}
	// crewjam's error for neither the response nor the assertion signed
	// is not exported.
	if strings.Contains(why, "signature element not present") {
		return "unsigned"
	}
	return why
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

// samlSubjectIDAttribute is the SAML subject-id attribute, which names a
// person for good.
const samlSubjectIDAttribute = "urn:oasis:names:tc:SAML:attribute:subject-id"

// samlAttribute returns the values of the assertion's attributes whose Name
// or FriendlyName is name (any case), as GoTrue reads them.
func samlAttribute(a *saml.Assertion, name string) []string {
	var values []string
	for _, stmt := range a.AttributeStatements {
		for _, attr := range stmt.Attributes {
			if strings.EqualFold(attr.Name, name) || strings.EqualFold(attr.FriendlyName, name) {
				for _, v := range attr.Values {
					if v.Value != "" {
						values = append(values, v.Value)
					}
				}
			}
		}
	}
	return values
}

// samlSubject returns who the assertion is about, for good, as GoTrue's
// UserID: the subject-id attribute, else the NameID (lower case when an
// address) unless it is transient; "" for none.
func samlSubject(a *saml.Assertion) string {
	if v := samlAttribute(a, samlSubjectIDAttribute); len(v) > 0 {
		return v[0]
	}
	if a.Subject == nil || a.Subject.NameID == nil || a.Subject.NameID.Value == "" {
		return ""
	}
	id := a.Subject.NameID
	switch id.Format {
	case string(saml.TransientNameIDFormat):
		return ""
	case string(saml.EmailAddressNameIDFormat):
		return strings.ToLower(strings.TrimSpace(id.Value))
	}
	return id.Value
}

// samlEmailAttributes are the attributes that may carry the address, in
// GoTrue's order.
var samlEmailAttributes = []string{
	"urn:oid:0.9.2342.19200300.100.1.3",
	"http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress",
	"http://schemas.xmlsoap.org/claims/EmailAddress",
	"mail",
	"email",
}

// samlEmail returns the person's address: from an e-mail attribute, else
// from an emailAddress NameID; "" for none.
func samlEmail(a *saml.Assertion) string {
	for _, name := range samlEmailAttributes {
		if v := samlAttribute(a, name); len(v) > 0 {
			return v[0]
		}
	}
	if a.Subject != nil && a.Subject.NameID != nil && a.Subject.NameID.Format == string(saml.EmailAddressNameIDFormat) {
		return a.Subject.NameID.Value
	}
	return ""
}

// samlNameAttributes are the attributes that may carry the person's name.
var samlNameAttributes = []string{
	"http://schemas.microsoft.com/identity/claims/displayname",
	"urn:oid:2.16.840.1.113730.3.1.241", // displayName
	"displayName",
	"name",
	"urn:oid:2.5.4.3", // cn
	"cn",
}

// samlClaims is the identity_data of the assertion's person: GoTrue's
// claims (iss, sub, email, email_verified), name when there is one, and
// every attribute in custom_claims.
func samlClaims(a *saml.Assertion, issuer, subject, email string) map[string]any {
	claims := map[string]any{"iss": issuer, "sub": subject, "email": email, "email_verified": true}
	for _, name := range samlNameAttributes {
		if v := samlAttribute(a, name); len(v) > 0 {
			claims["name"] = v[0]
			break
		}
	}
	custom := map[string]any{}
	for _, stmt := range a.AttributeStatements {
		for _, attr := range stmt.Attributes {
			key := attr.Name
			if attr.FriendlyName != "" {
				key = attr.FriendlyName
			}
			values := samlAttribute(a, attr.Name)
			switch len(values) {
			case 0:
			case 1:
				custom[key] = values[0]
			default:
				custom[key] = values
			}
		}
	}
	if len(custom) > 0 {
		claims["custom_claims"] = custom
	}
	return claims
}
