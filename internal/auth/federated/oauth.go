package federated

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"unicode/utf8"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"studio/internal/api"
	"studio/internal/auth/gotrue"
	"studio/internal/staff"
)

// Sign-in with an OpenID Connect provider, as GoTrue's /authorize and
// /callback: the browser goes to the provider with a state, a nonce and
// this service's own PKCE challenge; it comes back to /callback with a
// code, which is exchanged for an ID token; the token verified, the person
// is matched to staff (federatedUser) and the flow ends at its redirect_to
// (finishFlow). GET /user/identities/authorize starts the same flow to
// link the provider to the signed-in person.

// CallbackPath is where providers send the browser back, under the
// service's prefix: the redirect URI to register at a provider is
// SiteOrigin + /auth/v1 + CallbackPath.
const CallbackPath = "/callback"

// forwardedParams are the query parameters of /authorize (supabase-js's
// queryParams) passed on to the provider's authorization request, each
// once, named exactly so: hints and display choices, which change who is
// asked and how, never what comes back. Anything else is dropped: the
// parameters this service sets itself (client_id, redirect_uri,
// response_type, scope, state, nonce, PKCE's), and those that would change
// them or the answer at a provider that honours them (request and
// request_uri, an unsigned request object overriding state, nonce or the
// PKCE challenge; response_mode; claims; …).
var forwardedParams = []string{
	"login_hint",  // the address to sign in with (OpenID Connect)
	"prompt",      // select_account, consent, login (OpenID Connect)
	"ui_locales",  // the language of the provider's pages (OpenID Connect)
	"hd",          // Google: the Workspace domain of the accounts offered
	"access_type", // Google: offline (a refresh token, which this service does not keep)
	"domain_hint", // Microsoft Entra ID: the tenant's domain, to skip the account picker
}

// handleAuthorize handles GET /auth/v1/authorize?provider=NAME&redirect_to&
// scopes&code_challenge&code_challenge_method: a 302 to the provider.
func (h *Handlers) handleAuthorize(w http.ResponseWriter, r *http.Request) {
	if !h.host.Allow(w, r, LimitStart) {
		return
	}
	to, e := h.providerRedirect(r, "")
	if e != nil {
		gotrue.WriteError(w, r, e)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, to, http.StatusFound)
}

// handleLinkIdentity handles GET /auth/v1/user/identities/authorize: the
// flow of handleAuthorize, whose identity is linked to the signed-in
// person. With skip_http_redirect=true (the official client) it answers
// {url}, else a 302.
func (h *Handlers) handleLinkIdentity(w http.ResponseWriter, r *http.Request) {
	u, ok := h.host.LinkingUser(w, r)
	if !ok {
		return
	}
	if !h.host.Allow(w, r, LimitStart) {
		return
	}
	to, e := h.providerRedirect(r, u.ID)
	if e != nil {
		gotrue.WriteError(w, r, e)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	if r.URL.Query().Get("skip_http_redirect") == "true" {
		api.WriteJSON(w, http.StatusOK, map[string]string{"url": to})
		return
	}
	http.Redirect(w, r, to, http.StatusFound)
}

// providerRedirect starts a flow at the provider the request names and
// returns the URL of the provider's authorization request. linkUserID,
// when set, is the person the identity is linked to.
func (h *Handlers) providerRedirect(r *http.Request, linkUserID string) (string, *gotrue.Error) {
	q := r.URL.Query()
	c, e := h.oidcProvider(r.Context(), q.Get("provider"))
	if e != nil {
		return "", e
	}
	method, e := gotrue.PKCEMethod(q.Get("code_challenge"), q.Get("code_challenge_method"))
	if e != nil {
		return "", e
	}
	nonce, err := staff.RandomToken()
	if err != nil {
		return "", h.storeFailure("new nonce", err)
	}
	verifier := oauth2.GenerateVerifier()
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	state, err := h.newFlow(ctx, c.Name, q.Get("redirect_to"), q.Get("code_challenge"), method, nonce, verifier, linkUserID)
	if err != nil {
		return "", h.storeFailure("create flow state", err)
	}
	var opts []oauth2.AuthCodeOption
	for _, key := range forwardedParams {
		if q.Has(key) {
			opts = append(opts, oauth2.SetAuthURLParam(key, q.Get(key)))
		}
	}
	opts = append(opts, oidc.Nonce(nonce), oauth2.S256ChallengeOption(verifier))
	return c.oauth2Config(h.callbackURL(), c.scopes(q.Get("scopes"))).AuthCodeURL(state, opts...), nil
}

// callbackURL is the redirect URI sent to providers.
func (h *Handlers) callbackURL() string { return h.cfg.Issuer + CallbackPath }

// handleCallback handles GET or POST (form_post) /auth/v1/callback: the
// provider's answer. The flow of its state ends at its redirect_to; an
// unknown or expired state at the console. A refusal of a flow of this
// service is audited (login_failed); an unknown state, which anyone may
// send, is only answered.
func (h *Handlers) handleCallback(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, api.MaxBodyBytes)
	if err := r.ParseForm(); err != nil {
		h.finishFlow(w, r, h.consoleFlow(), staff.User{}, MethodOAuth,
			gotrue.NewError(http.StatusBadRequest, gotrue.CodeBadOAuthCallback, "OAuth callback could not be read"))
		return
	}
	state := r.Form.Get("state")
	if state == "" {
		h.finishFlow(w, r, h.consoleFlow(), staff.User{}, MethodOAuth,
			gotrue.NewError(http.StatusBadRequest, gotrue.CodeBadOAuthCallback, "OAuth state parameter missing"))
		return
	}
	ctx, cancel := withStoreTimeout(r)
	flow, err := h.store.ConsumeFlowState(ctx, staff.StateHash(state), h.cfg.Now())
	cancel()
	switch {
	case errors.Is(err, staff.ErrNotFound):
		h.finishFlow(w, r, h.consoleFlow(), staff.User{}, MethodOAuth,
			gotrue.NewError(http.StatusBadRequest, gotrue.CodeBadOAuthState, "OAuth state not found or expired"))
		return
	case errors.Is(err, staff.ErrFlowStateExpired):
		expired := federatedRefusal{reason: "state expired", e: gotrue.NewError(http.StatusBadRequest, gotrue.CodeBadOAuthState, "OAuth state has expired")}
		h.auditRefusal(r, kindOIDCAudit, flow.Provider, expired)
		h.finishFlow(w, r, h.consoleFlow(), staff.User{}, MethodOAuth, expired.e)
		return
	case err != nil:
		h.finishFlow(w, r, h.consoleFlow(), staff.User{}, MethodOAuth, h.storeFailure("consume flow state", err))
		return
	}
	u, refusal := h.providerSignIn(r, flow, r.Form)
	if refusal != nil {
		h.refuseFlow(w, r, flow, kindOIDCAudit, MethodOAuth, *refusal)
		return
	}
	h.finishFlow(w, r, flow, u, MethodOAuth, nil)
}

// providerSignIn checks the issuer of the callback's params, trades their
// code for the provider's ID token, checks it and its nonce against flow, and returns
// the member of staff it signs in (or links to flow.LinkUserID), or why
// not.
func (h *Handlers) providerSignIn(r *http.Request, flow staff.FlowState, params url.Values) (staff.User, *federatedRefusal) {
	c, e := h.oidcProvider(r.Context(), flow.Provider)
	if e != nil {
		return staff.User{}, &federatedRefusal{reason: "provider unavailable", e: e}
	}
	if refusal := c.responseIssuerRefusal(params); refusal != nil {
		return staff.User{}, refusal
	}
	if refusal := params.Get("error"); refusal != "" {
		why := params.Get("error_description")
		if why == "" {
			why = refusal
		}
		return staff.User{}, &federatedRefusal{reason: "provider refused: " + truncate(refusal, 64),
			e: gotrue.NewError(http.StatusForbidden, gotrue.CodeBadOAuthCallback, "The provider refused the sign-in: %s", why)}
	}
	code := params.Get("code")
	if code == "" {
		return staff.User{}, &federatedRefusal{reason: "no code", e: gotrue.NewError(http.StatusBadRequest, gotrue.CodeBadOAuthCallback, "OAuth callback with missing authorization code")}
	}
	ctx, cancel := context.WithTimeout(r.Context(), ProviderTimeout)
	defer cancel()
	tok, err := c.oauth2Config(h.callbackURL(), nil).Exchange(ProviderContext(ctx, c.cfg.Issuer), code, oauth2.VerifierOption(flow.ProviderVerifier))
	if err != nil {
		h.cfg.Logger.Warn("auth: code exchange failed", "provider", c.Name, "err", err)
		return staff.User{}, &federatedRefusal{reason: "code exchange", e: gotrue.NewError(http.StatusBadGateway, gotrue.CodeBadOAuthCallback, "The provider %s did not exchange the code", c.Name)}
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return staff.User{}, &federatedRefusal{reason: "no id token", e: gotrue.NewError(http.StatusBadGateway, gotrue.CodeBadOAuthCallback, "The provider %s sent no ID token", c.Name)}
	}
	idt, claims, refusal := h.verifyIDToken(ctx, c, raw, tok.AccessToken)
	if refusal == nil && !NonceMatches(idt.Nonce, flow.RequestID) {
		refusal = &federatedRefusal{reason: "nonce", e: gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "Nonces mismatch")}
	}
	if refusal != nil {
		if refusal.e.Status != http.StatusBadGateway { // the provider failing stays so
			refusal.e = gotrue.NewError(http.StatusBadRequest, gotrue.CodeBadOAuthCallback, "The provider's ID token was refused: %s", refusal.e.Message)
		}
		return staff.User{}, refusal
	}
	sctx, scancel := withStoreTimeout(r)
	defer scancel()
	person := c.person(idt, claims)
	return h.federatedUser(sctx, r, person, flow.LinkUserID)
}

// truncate cuts text to at most n bytes, at a rune boundary.
func truncate(text string, n int) string {
	if len(text) <= n {
		return text
	}
	for n > 0 && !utf8.RuneStart(text[n]) {
		n--
	}
	return text[:n]
}
