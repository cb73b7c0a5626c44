package federated

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"studio/internal/api"
	"studio/internal/auth/gotrue"
	"studio/internal/staff"
)

// OpenID Connect providers (Google Workspace, Microsoft Entra, Okta,
// Keycloak, Dex, …): what "studio oauth add" stores, the discovery of a
// provider's endpoints and keys, and the verification of its ID tokens.
// oauth.go holds the endpoints of the sign-in, idtoken.go the id_token
// grant.

// oidcClient is an OIDC provider ready to use: its settings, the client
// secret opened, and its discovery.
type oidcClient struct {
	staff.Provider
	cfg    OIDCConfig
	secret string
	*Discovery
}

// errUnknownProvider is GoTrue's answer to a provider= it does not know.
func errUnknownProvider(name string) *gotrue.Error {
	return gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "Unsupported provider: provider %s could not be found", name)
}

// errProviderUnreachable answers a provider that could not be read.
func errProviderUnreachable(name string) *gotrue.Error {
	return gotrue.NewError(http.StatusBadGateway, gotrue.CodeUnexpectedFailure, "The provider %s could not be reached, please try again later", name)
}

// oidcProvider returns the OIDC provider of that name: 400 for none, 502
// when its discovery fails.
func (h *Handlers) oidcProvider(ctx context.Context, name string) (oidcClient, *gotrue.Error) {
	if name == "" {
		return oidcClient{}, gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "Unsupported provider: missing provider")
	}
	sctx, cancel := context.WithTimeout(ctx, api.StoreTimeout)
	p, err := h.store.FindProvider(sctx, name)
	cancel()
	switch {
	case errors.Is(err, staff.ErrNotFound) || (err == nil && (p.Kind != staff.KindOIDC || p.Name != name)):
		return oidcClient{}, errUnknownProvider(name)
	case err != nil:
		return oidcClient{}, h.storeFailure("find provider", err)
	}
	cfg, err := OIDCSettings(p)
	if err != nil {
		return oidcClient{}, h.storeFailure("provider settings", err)
	}
	secret, err := h.cfg.SecretKey.Open([]byte(cfg.ClientSecret), ClientSecretLabel(p.ID))
	if err != nil {
		return oidcClient{}, h.storeFailure("open client secret of "+p.Name, err)
	}
	d, err := h.oidc.Get(ctx, p, cfg.Issuer, h.cfg.Now())
	if err != nil {
		h.cfg.Logger.Warn("auth: provider discovery failed", "provider", p.Name, "err", err)
		return oidcClient{}, errProviderUnreachable(p.Name)
	}
	return oidcClient{Provider: p, cfg: cfg, secret: string(secret), Discovery: d}, nil
}

// responseIssuerRefusal checks the iss of an authorization response (RFC
// 9207), which defends against a mix-up: a response that another provider
// sent, carried to this one's callback. It must be c's issuer, and it must
// be there if c says it always sends it. nil when it is right.
func (c oidcClient) responseIssuerRefusal(params url.Values) *federatedRefusal {
	iss, sent := params["iss"]
	switch {
	case !sent && !c.IssParam:
		return nil
	case !sent:
		return &federatedRefusal{reason: "response issuer missing",
			e: gotrue.NewError(http.StatusBadRequest, gotrue.CodeBadOAuthCallback, "OAuth callback without the issuer of the provider %s", c.Name)}
	case len(iss) != 1 || iss[0] != c.Issuer:
		return &federatedRefusal{reason: "response issuer",
			e: gotrue.NewError(http.StatusBadRequest, gotrue.CodeBadOAuthCallback, "OAuth callback from an issuer other than the provider %s", c.Name)}
	}
	return nil
}

// oauth2Config is the OAuth 2.0 client of c, returning to redirectURL.
func (c oidcClient) oauth2Config(redirectURL string, scopes []string) *oauth2.Config {
	ep := c.OIDC.Endpoint()
	ep.AuthStyle = c.AuthStyle
	return &oauth2.Config{ClientID: c.cfg.ClientID, ClientSecret: c.secret, Endpoint: ep, RedirectURL: redirectURL, Scopes: scopes}
}

// scopes are the scopes asked of c: baseScopes, the provider's, and those
// of the request (space- or comma-separated), each once.
func (c oidcClient) scopes(requested string) []string {
	out := slices.Clone(BaseScopes)
	extra := append(slices.Clone(c.cfg.Scopes), strings.FieldsFunc(requested, func(r rune) bool { return r == ' ' || r == ',' })...)
	for _, sc := range extra {
		if !slices.Contains(out, sc) {
			out = append(out, sc)
		}
	}
	return out
}

// errBadIDToken is GoTrue's refusal of an ID token that does not verify
// (the detail is logged, not told).
var errBadIDToken = gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "Bad ID token")

// verifyIDToken verifies raw, an ID token of c: signed with one of its keys
// (JWKS), issued by its issuer, not expired, for its client id (aud), with
// a subject, and, when accessToken is not empty and the token has an
// at_hash, issued with that access token. Its nonce is the caller's to
// check. It refuses with GoTrue's 400s.
func (h *Handlers) verifyIDToken(ctx context.Context, c oidcClient, raw, accessToken string) (*oidc.IDToken, IDTokenClaims, *federatedRefusal) {
	var claims IDTokenClaims
	ctx, cancel := context.WithTimeout(ctx, ProviderTimeout)
	defer cancel()
	v := c.OIDC.Verifier(&oidc.Config{SkipClientIDCheck: true, Now: h.cfg.Now})
	tok, err := v.Verify(ProviderContext(ctx, c.cfg.Issuer), raw)
	if err == nil && accessToken != "" && tok.AccessTokenHash != "" {
		err = tok.VerifyAccessToken(accessToken)
	}
	if IsRefusedAddress(err) { // its JWKS is on another host, inside the network
		h.cfg.Logger.Warn("auth: provider call refused", "provider", c.Name, "err", err)
		return nil, claims, &federatedRefusal{reason: "provider unreachable", e: errProviderUnreachable(c.Name)}
	}
	if err != nil {
		h.cfg.Logger.Info("auth: ID token refused", "provider", c.Name, "err", err)
		return nil, claims, &federatedRefusal{reason: IDTokenRefusalReason(err), e: errBadIDToken}
	}
	if !slices.Contains(tok.Audience, c.cfg.ClientID) {
		return nil, claims, &federatedRefusal{reason: "audience",
			e: gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "Unacceptable audience in id_token: %v", tok.Audience)}
	}
	if err := tok.Claims(&claims); err != nil || claims.Subject == "" {
		return nil, claims, &federatedRefusal{reason: "no subject", e: gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "Missing sub claim in id_token")}
	}
	return tok, claims, nil
}

// person is who the verified claims of c's token say signed in.
func (c oidcClient) person(tok *oidc.IDToken, claims IDTokenClaims) federatedPerson {
	data := map[string]any{"iss": tok.Issuer, "sub": claims.Subject, "provider_id": claims.Subject,
		"email": claims.Email, "email_verified": claims.EmailIsVerified()}
	if claims.Name != "" {
		data["name"], data["full_name"] = claims.Name, claims.Name
	}
	if claims.Picture != "" {
		data["picture"], data["avatar_url"] = claims.Picture, claims.Picture
	}
	return federatedPerson{Provider: c.Provider, Subject: claims.Subject, Email: claims.Email,
		EmailVerified: claims.EmailIsVerified(), Data: data, Method: MethodOAuth}
}
