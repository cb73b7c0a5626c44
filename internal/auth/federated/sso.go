package federated

import (
	"errors"
	"net/http"
	"strings"

	"github.com/crewjam/saml"
	"github.com/google/uuid"

	"studio/internal/api"
	"studio/internal/auth/gotrue"
	"studio/internal/staff"
)

// ssoParams is the body of POST /sso, as supabase-js signInWithSSO sends
// it.
type ssoParams struct {
	ProviderID          string `json:"provider_id"`
	Domain              string `json:"domain"`
	RedirectTo          string `json:"redirect_to"`
	SkipHTTPRedirect    *bool  `json:"skip_http_redirect"`
	CodeChallenge       string `json:"code_challenge"`
	CodeChallengeMethod string `json:"code_challenge_method"`
	gotrue.CaptchaParams
}

// validate checks that exactly one of provider_id and domain is given, with
// GoTrue's messages.
func (p ssoParams) validate() *gotrue.Error {
	switch {
	case p.ProviderID != "" && p.Domain != "":
		return gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "Only one of provider_id or domain supported")
	case p.ProviderID == "" && p.Domain == "":
		return gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "A provider_id or domain needs to be provided")
	case p.ProviderID != "" && uuid.Validate(p.ProviderID) != nil:
		// GoTrue's body has a UUID there, so this fails as its JSON does.
		return gotrue.NewError(http.StatusBadRequest, gotrue.CodeBadJSON, "Could not parse request body as JSON: provider_id is not a UUID")
	}
	return nil
}

var (
	errNoSSOProvider       = gotrue.NewError(http.StatusNotFound, gotrue.CodeSSOProviderNotFound, "No such SSO provider")
	errNoSSOProviderDomain = gotrue.NewError(http.StatusNotFound, gotrue.CodeSSOProviderNotFound, "No SSO provider assigned for this domain")
)

// handleSSO handles POST /sso: it starts a SAML sign-in at the provider of
// the domain (or of provider_id) and answers the IdP's URL, {url} with
// skip_http_redirect (what supabase-js asks for), else a 303 to it. The
// AuthnRequest goes by the HTTP-Redirect binding, signed; its RelayState is
// the flow's state, and the flow keeps its ID for InResponseTo.
func (h *Handlers) handleSSO(w http.ResponseWriter, r *http.Request) {
	var p ssoParams
	if !gotrue.DecodeBody(w, r, &p) {
		return
	}
	if e := p.validate(); e != nil {
		gotrue.WriteError(w, r, e)
		return
	}
	if !h.host.Allow(w, r, LimitSSO) {
		return
	}
	if !h.host.CheckCaptcha(w, r, p.Security.CaptchaToken) { // before anything is looked up or stored
		return
	}

	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	var provider staff.Provider
	var err error
	notFound := errNoSSOProvider
	if p.ProviderID != "" {
		id := uuid.MustParse(p.ProviderID).String() // validated
		provider, err = h.store.FindProvider(ctx, id)
		if err == nil && (provider.Kind != staff.KindSAML || provider.ID != id) {
			err = staff.ErrNotFound
		}
	} else {
		notFound = errNoSSOProviderDomain
		provider, err = h.store.FindSSOProviderByDomain(ctx, strings.ToLower(strings.TrimSpace(p.Domain)))
	}
	switch {
	case errors.Is(err, staff.ErrNotFound):
		gotrue.WriteError(w, r, notFound)
		return
	case err != nil:
		h.failed(w, r, "find SSO provider", err)
		return
	}
	method, e := gotrue.PKCEMethod(p.CodeChallenge, p.CodeChallengeMethod)
	if e != nil {
		gotrue.WriteError(w, r, e)
		return
	}

	config, idp, err := h.samlSettings(r.Context(), provider)
	if err != nil {
		h.failed(w, r, "SAML provider", err)
		return
	}
	sp, err := h.serviceProvider(ctx, idp, config.NameIDFormat, h.cfg.Now())
	if err != nil {
		h.failed(w, r, "SAML service provider", err)
		return
	}
	request, err := sp.MakeAuthenticationRequest(sp.GetSSOBindingLocation(saml.HTTPRedirectBinding), saml.HTTPRedirectBinding, saml.HTTPPostBinding)
	if err != nil {
		h.failed(w, r, "SAML AuthnRequest", err)
		return
	}
	state, err := h.newFlow(ctx, provider.Name, p.RedirectTo, p.CodeChallenge, method, request.ID, "", "")
	if err != nil {
		h.failed(w, r, "create flow state", err)
		return
	}
	to, err := request.Redirect(state, sp)
	if err != nil {
		h.failed(w, r, "SAML redirect", err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	if p.SkipHTTPRedirect != nil && *p.SkipHTTPRedirect {
		api.WriteJSON(w, http.StatusOK, struct {
			URL string `json:"url"`
		}{to.String()})
		return
	}
	http.Redirect(w, r, to.String(), http.StatusSeeOther)
}
