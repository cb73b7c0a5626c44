package federated

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/google/uuid"

	"studio/internal/auth/gotrue"
	"studio/internal/notify"
	"studio/internal/staff"
)

// How every federated sign-in ends, whichever the provider: the person the
// provider vouches for is matched to a member of staff (federatedUser), and
// the browser goes back to the flow's redirect_to with tokens (implicit) or
// an auth code (PKCE), or with GoTrue's error parameters (finishFlow).

// AMR methods of federated sign-in; they are also the purposes of the auth
// codes a PKCE flow returns, so that grant_type=pkce knows how its session
// began.
const (
	MethodSSO   = "sso/saml"
	MethodOAuth = "oauth"
)

// FlowStateExpiry is how long a sign-in may stay at its provider.
const FlowStateExpiry = 10 * time.Minute

// authCodeExpiry is how long the auth code of a PKCE flow may be exchanged.
const authCodeExpiry = 5 * time.Minute

// federatedPerson is who a provider says signed in.
type federatedPerson struct {
	Provider      staff.Provider
	Subject       string
	Email         string
	EmailVerified bool
	Data          map[string]any // the provider's claims
	Method        string         // MethodSSO or MethodOAuth
}

// The refusals of federated sign-in.
var (
	errSignupDisabled   = gotrue.NewError(http.StatusUnprocessableEntity, gotrue.CodeSignupDisabled, "Signups not allowed for this instance")
	errEmailNotVerified = gotrue.NewError(http.StatusUnprocessableEntity, gotrue.CodeProviderEmailNeedsVerification,
		"The provider has not verified this e-mail address: it signs nobody in")
	errIdentityTaken = gotrue.NewError(http.StatusUnprocessableEntity, gotrue.CodeIdentityAlreadyExists,
		"Identity is already linked to another user")
	errIdentityLinked = gotrue.NewError(http.StatusUnprocessableEntity, gotrue.CodeIdentityAlreadyExists, "Identity is already linked")
	// errProviderUnlinked: the person unlinked the provider; only a link
	// they make again lets it sign them in.
	errProviderUnlinked = gotrue.NewError(http.StatusForbidden, gotrue.CodeIdentityNotFound,
		"This provider was unlinked from the account: sign in another way and link it again")
)

// Kinds of federated sign-in, as the audit log names them.
const (
	kindSAMLAudit = "saml"
	kindOIDCAudit = "oidc"
)

// federatedRefusal is why a federated sign-in was refused: logged, audited
// (auditRefusal), and told as e.
type federatedRefusal struct {
	reason string // for the log and the audit: signature, expired, audience, not staff…
	email  string // when known
	e      *gotrue.Error
}

// personRefusal is the refusal of federatedUser's e for email: "not staff"
// for a sign-in, "link" for the linking of an identity.
func personRefusal(e *gotrue.Error, email, linkUserID string) *federatedRefusal {
	why := "not staff: "
	if linkUserID != "" {
		why = "link: "
	}
	return &federatedRefusal{reason: why + e.Code, email: email, e: e}
}

// auditRefusal logs a refused federated sign-in of kind (kindSAMLAudit,
// kindOIDCAudit) at provider and records login_failed with the detail
// "KIND PROVIDER: REASON". A failure of the store is only logged: the store
// would not record it either.
func (h *Handlers) auditRefusal(r *http.Request, kind, provider string, refusal federatedRefusal) {
	h.cfg.Logger.Warn("auth: federated sign-in refused", "kind", kind, "provider", provider, "reason", refusal.reason, "code", refusal.e.Code)
	if refusal.e.Status == http.StatusInternalServerError || refusal.e.Status == http.StatusServiceUnavailable {
		return
	}
	audit := h.host.Audit(r, staff.ActionLoginFailed)
	audit.Email, audit.Detail = refusal.email, kind+" "+provider+": "+refusal.reason
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	if err := h.store.AddAudit(ctx, audit); err != nil {
		h.cfg.Logger.Warn("auth: audit a refused sign-in", "err", err)
	}
}

// refuseFlow ends a refused federated sign-in: audited (auditRefusal), and
// the browser back at flow's redirect_to with the error.
func (h *Handlers) refuseFlow(w http.ResponseWriter, r *http.Request, flow staff.FlowState, kind, method string, refusal federatedRefusal) {
	h.auditRefusal(r, kind, flow.Provider, refusal)
	h.finishFlow(w, r, flow, staff.User{}, method, refusal.e)
}

// newFlow starts a sign-in at provider: it stores its flow state and returns
// the state to send. redirectTo is checked against --redirect-urls (the
// console when refused).
func (h *Handlers) newFlow(ctx context.Context, provider, redirectTo, challenge, method, requestID, providerVerifier, linkUserID string) (string, error) {
	state, err := staff.RandomToken()
	if err != nil {
		return "", err
	}
	now := h.cfg.Now()
	to := h.host.Redirect(redirectTo)
	err = h.store.CreateFlowState(ctx, staff.FlowState{StateHash: staff.StateHash(state), Provider: provider, RequestID: requestID,
		ProviderVerifier: providerVerifier, RedirectTo: to.String(), CodeChallenge: challenge, CodeChallengeMethod: method,
		LinkUserID: linkUserID, CreatedAt: now, ExpiresAt: now.Add(FlowStateExpiry)})
	return state, err
}

// federatedUser returns the member of staff p is. A provider vouches only
// for its own people: an identity tied to a member of staff signs them in;
// linkUserID, when set, is the signed-in person the identity is linked to
// (an identity linked already, to them or to another, is refused as GoTrue
// does); else only an address of a domain the provider is allowed signs in:
// its member of staff (unless they unlinked the provider), or a new one. Any
// other address, staff's or not, is refused alike, and nothing is created.
// Every new link is audited and mailed to the person.
func (h *Handlers) federatedUser(ctx context.Context, r *http.Request, p federatedPerson, linkUserID string) (staff.User, *federatedRefusal) {
	email, err := staff.NormalizeEmail(p.Email)
	if err != nil || !p.EmailVerified {
		return staff.User{}, personRefusal(errEmailNotVerified, p.Email, linkUserID)
	}
	now := h.cfg.Now()
	id := staff.Identity{ID: uuid.NewString(), Provider: p.Provider.Name, Subject: p.Subject, Email: email, Data: p.Data,
		CreatedAt: now, UpdatedAt: now, LastSignInAt: &now}
	audit := h.host.Audit(r, staff.ActionIdentityLinked)
	audit.Email, audit.Detail = email, p.Provider.Name
	refused := func(e *gotrue.Error) (staff.User, *federatedRefusal) {
		return staff.User{}, personRefusal(e, email, linkUserID)
	}

	var u staff.User
	var link *staff.Link
	existing, err := h.store.FindIdentity(ctx, p.Provider.Name, p.Subject)
	switch {
	case err == nil && linkUserID != "" && existing.UserID == linkUserID:
		return refused(errIdentityLinked) // GoTrue's answer: linking is not signing in again
	case err == nil && linkUserID != "":
		return refused(errIdentityTaken)
	case err == nil:
		u.ID, id.ID, id.CreatedAt = existing.UserID, existing.ID, existing.CreatedAt
		audit.Action = staff.ActionLogin
	case !errors.Is(err, staff.ErrNotFound):
		return refused(h.storeFailure("find identity", err))
	case linkUserID != "":
		if u, err = h.store.FindUserByID(ctx, linkUserID); err != nil {
			return refused(h.storeFailure("find user", err))
		}
		link = &staff.Link{}
	case !p.Provider.AllowsDomainOf(email):
		return staff.User{}, &federatedRefusal{reason: "not vouched: the address is outside the provider's domains", email: email, e: errSignupDisabled}
	default:
		link = &staff.Link{ByDomain: true}
		u, err = h.store.FindUserByEmail(ctx, email)
		switch {
		case errors.Is(err, staff.ErrNotFound):
			u = staff.User{ID: uuid.NewString(), Email: email, UserMetadata: map[string]any{}, CreatedAt: now, UpdatedAt: now}
			if name, ok := p.Data["name"].(string); ok && name != "" {
				u.UserMetadata["name"] = name
			}
			link.NewUser = &u
			audit.Action, audit.Detail = staff.ActionStaffAdded, "first sign-in through "+p.Provider.Name
		case err != nil:
			return refused(h.storeFailure("find user", err))
		}
	}
	id.UserID, audit.UserID = u.ID, u.ID
	if link != nil {
		link.Mail = h.linkedMail(u, p)
	}
	switch err := h.store.SaveIdentity(ctx, id, link, audit); {
	case errors.Is(err, staff.ErrExists):
		return refused(errIdentityTaken)
	case errors.Is(err, staff.ErrUnlinked):
		return staff.User{}, &federatedRefusal{reason: "not vouched: the person unlinked this provider", email: email, e: errProviderUnlinked}
	case errors.Is(err, staff.ErrNotFound): // unlinked meanwhile
		return staff.User{}, &federatedRefusal{reason: "not vouched: the identity was unlinked", email: email, e: errProviderUnlinked}
	case err != nil:
		return refused(h.storeFailure("save identity", err))
	}
	u, err = h.store.FindUserByID(ctx, u.ID)
	if errors.Is(err, staff.ErrNotFound) { // removed meanwhile
		return refused(errSignupDisabled)
	}
	if err != nil {
		return refused(h.storeFailure("find user", err))
	}
	return u, nil
}

// linkedMail tells u that the provider of p may now sign them in; nil when
// mail is off.
func (h *Handlers) linkedMail(u staff.User, p federatedPerson) *notify.Email {
	account := p.Subject
	if p.Email != "" {
		account = p.Email
	}
	return LinkedMail(h.cfg.MailFrom, h.cfg.SiteOrigin, u, p.Provider, account)
}

// LinkedMail is the mail from sender that tells u that provider may now
// sign them in on the site at siteOrigin, as account there: every new link
// is mailed, so that one the person did not make is seen. Nil without a
// sender (mail is off).
func LinkedMail(sender, siteOrigin string, u staff.User, provider staff.Provider, account string) *notify.Email {
	if sender == "" {
		return nil
	}
	host := siteOrigin
	if o, err := url.Parse(siteOrigin); err == nil && o.Host != "" {
		host = o.Host
	}
	return &notify.Email{
		From:    sender,
		To:      []string{u.Email},
		Subject: "A sign-in method was added to your account",
		Body: fmt.Sprintf("The identity provider %s may now sign you in as %s on %s:\n"+
			"the account %s there was linked to yours.\n\n"+
			"If it was not you, someone may be able to sign in as you. Unlink it in the\n"+
			"console (Account, Sign-in methods), or ask the site's operator to end your\n"+
			"sessions (studio staff remove, or studio staff reset-mfa %s).\n",
			provider.Label(), u.Email, host, account, u.Email),
	}
}

// finishFlow ends the flow of a federated sign-in at its redirect_to: with
// an auth code (PKCE) or the session's tokens in the fragment (implicit),
// or, when e is not nil, with e as GoTrue's error parameters.
func (h *Handlers) finishFlow(w http.ResponseWriter, r *http.Request, flow staff.FlowState, u staff.User, method string, e *gotrue.Error) {
	to, err := url.Parse(flow.RedirectTo)
	if err != nil { // stored by newFlow from an allowed URL
		console := h.host.Redirect("")
		to = &console
	}
	if e == nil {
		e = h.finishParams(r, to, flow, u, method)
	}
	if e != nil {
		h.host.CountSignIn(e.Code)
		setErrorParams(to, flow.PKCE(), e)
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	http.Redirect(w, r, to.String(), http.StatusFound)
}

// finishParams puts the outcome of a sign-in of u into to: an auth code in
// the query for a PKCE flow (its session starts at the exchange), else a
// new session's tokens in the fragment.
func (h *Handlers) finishParams(r *http.Request, to *url.URL, flow staff.FlowState, u staff.User, method string) *gotrue.Error {
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	now := h.cfg.Now()
	if flow.PKCE() {
		code, err := staff.RandomToken()
		if err != nil {
			return h.storeFailure("new auth code", err)
		}
		audit := h.host.Audit(r, staff.ActionCodeIssued)
		audit.Email, audit.UserID, audit.Detail = u.Email, u.ID, method
		err = h.store.CreateCode(ctx, staff.Code{UserID: u.ID, Purpose: method, LinkHash: staff.LinkHash(code), CreatedAt: now,
			ExpiresAt: now.Add(authCodeExpiry), CodeChallenge: flow.CodeChallenge, CodeChallengeMethod: flow.CodeChallengeMethod}, audit)
		if err != nil {
			return h.storeFailure("create auth code", err)
		}
		q := to.Query()
		q.Set("code", code)
		to.RawQuery = q.Encode()
		return nil
	}
	answer, e := h.host.NewSession(r, u, method, h.host.Audit(r, staff.ActionLogin))
	if e != nil {
		return e
	}
	setFragment(to, url.Values{
		"access_token": {answer.AccessToken}, "token_type": {answer.TokenType},
		"expires_in": {strconv.Itoa(answer.ExpiresIn)}, "expires_at": {strconv.FormatInt(answer.ExpiresAt, 10)},
		"refresh_token": {answer.RefreshToken}, "type": {"signup"},
	})
	return nil
}

// setErrorParams puts e into to as GoTrue does: error, error_code and
// error_description in the query (PKCE) or the fragment (implicit).
func setErrorParams(to *url.URL, pkce bool, e *gotrue.Error) {
	kind := "invalid_request"
	switch {
	case e.Status >= 500:
		kind = "server_error"
	case e.Code == gotrue.CodeSignupDisabled || e.Code == gotrue.CodeProviderEmailNeedsVerification || e.Code == gotrue.CodeIdentityAlreadyExists ||
		e.Status == http.StatusForbidden:
		kind = "access_denied"
	}
	params := url.Values{"error": {kind}, "error_code": {e.Code}, "error_description": {e.Message}}
	if pkce {
		q := to.Query()
		for k, v := range params {
			q[k] = v
		}
		to.RawQuery = q.Encode()
		return
	}
	params.Set("sb", "")
	setFragment(to, params)
}

// setFragment makes params the fragment of to, encoded once as a query is
// (a browser reads it with URLSearchParams): set as Fragment alone, the
// encoded text would be escaped again.
func setFragment(to *url.URL, params url.Values) {
	to.RawFragment = params.Encode()
	to.Fragment, _ = url.PathUnescape(to.RawFragment) // what Encode made unescapes
}

// consoleFlow is the flow of a sign-in whose state is unknown: it goes
// back to the console, the error in the fragment.
func (h *Handlers) consoleFlow() staff.FlowState {
	to := h.host.Redirect("")
	return staff.FlowState{RedirectTo: to.String()}
}
