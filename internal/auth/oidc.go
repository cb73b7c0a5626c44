package auth

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/google/uuid"
	"golang.org/x/oauth2"

	"studio/internal/api"
	"studio/internal/secretkey"
	"studio/internal/staff"
)

// OpenID Connect providers (Google Workspace, Microsoft Entra, Okta,
// Keycloak, Dex, …): what "studio oauth add" stores, the discovery of a
// provider's endpoints and keys, and the verification of its ID tokens.
// oauth.go holds the endpoints of the sign-in, idtoken.go the id_token
// grant.

// OIDCConfig is the Config of an OIDC provider, as stored.
type OIDCConfig struct {
	Issuer   string `json:"issuer"`
	ClientID string `json:"client_id"`
	// ClientSecret is sealed with the SecretKey, bound to the provider's
	// id (clientSecretLabel).
	ClientSecret string   `json:"client_secret"`
	Scopes       []string `json:"scopes,omitempty"` // asked for besides openid, email and profile
}

// OIDCProviderSpec is an OIDC provider as an operator describes it.
type OIDCProviderSpec struct {
	Name         string
	Issuer       string
	ClientID     string
	ClientSecret string
	Scopes       []string
	Domains      []string // whose people may be added as staff on first sign-in
}

// Limits of the calls to a provider.
const (
	// providerTimeout bounds every call to a provider: discovery, its
	// keys, the code exchange.
	providerTimeout = 10 * time.Second
	// maxProviderResponse bounds the body of each of its answers.
	maxProviderResponse = 1 << 20
	// discoveryRefresh is how long a provider's discovery is used before
	// it is read again (a failed read keeps the one there is). Its keys
	// are read again whenever a token names a key not seen yet.
	discoveryRefresh = time.Hour
)

// baseScopes are asked of every provider: the ID token, and the person's
// address and name in it.
var baseScopes = []string{oidc.ScopeOpenID, "email", "profile"}

var providerNamePattern = regexp.MustCompile(`^[a-z][a-z0-9-]{0,31}$`)

// reservedProviderNames are identities' providers this service names itself.
var reservedProviderNames = []string{"email", "phone", "anonymous", "sso", "saml"}

// CheckProviderName checks the name of an OIDC provider: a short lower-case
// word (letters, digits, hyphens), not one the service uses itself and not
// a SAML provider's "sso:…".
func CheckProviderName(name string) error {
	if !providerNamePattern.MatchString(name) || slices.Contains(reservedProviderNames, name) {
		return fmt.Errorf("provider name %q: want a short lower-case word (a-z, 0-9, -, at most 32), not %s",
			name, strings.Join(reservedProviderNames, ", "))
	}
	return nil
}

// CheckProviderURL checks the URL of a provider (an OIDC issuer, SAML
// metadata): https, or http on a loopback host (a test, a local IdP).
func CheckProviderURL(raw string) error {
	u, err := url.Parse(raw)
	switch {
	case err != nil || u.Host == "" || u.User != nil || u.Fragment != "" || u.RawQuery != "":
		return fmt.Errorf("%q: want an absolute URL without credentials, query or fragment", raw)
	case u.Scheme == "https":
		return nil
	case u.Scheme == "http" && isLoopback(u.Hostname()):
		return nil
	}
	return fmt.Errorf("%q: want https (http only on a loopback host)", raw)
}

// NewOIDCProvider checks spec, runs the discovery of its issuer (so that a
// wrong issuer, or one whose client authentication this service cannot do,
// fails now rather than at the first sign-in) and returns the provider to
// store, its client secret sealed with key.
func NewOIDCProvider(ctx context.Context, spec OIDCProviderSpec, key *secretkey.SecretKey, now time.Time) (staff.Provider, error) {
	if err := CheckProviderName(spec.Name); err != nil {
		return staff.Provider{}, err
	}
	if err := CheckProviderURL(spec.Issuer); err != nil {
		return staff.Provider{}, fmt.Errorf("issuer %w", err)
	}
	if spec.ClientID == "" || spec.ClientSecret == "" {
		return staff.Provider{}, errors.New("the client id and the client secret are required")
	}
	for _, sc := range spec.Scopes {
		if sc == "" || strings.ContainsAny(sc, " \t\r\n,\"\\") {
			return staff.Provider{}, fmt.Errorf("scope %q: want one word", sc)
		}
	}
	domains, err := normalizeDomains(spec.Domains)
	if err != nil {
		return staff.Provider{}, err
	}
	if _, err := discover(ctx, spec.Issuer); err != nil {
		return staff.Provider{}, err
	}
	id := uuid.NewString()
	sealed, err := key.Seal([]byte(spec.ClientSecret), clientSecretLabel(id))
	if err != nil {
		return staff.Provider{}, err
	}
	cfg := OIDCConfig{Issuer: spec.Issuer, ClientID: spec.ClientID, ClientSecret: string(sealed), Scopes: spec.Scopes}
	return staff.Provider{ID: id, Kind: staff.KindOIDC, Name: spec.Name, Domains: domains, Config: mustJSON(cfg), CreatedAt: now}, nil
}

// OIDCSettings returns the settings of p, an OIDC provider, its client
// secret still sealed.
func OIDCSettings(p staff.Provider) (OIDCConfig, error) {
	var c OIDCConfig
	if p.Kind != staff.KindOIDC {
		return c, fmt.Errorf("provider %s is not an OpenID Connect provider", p.Name)
	}
	if err := json.Unmarshal(p.Config, &c); err != nil {
		return c, fmt.Errorf("provider %s: settings: %w", p.Name, err)
	}
	return c, nil
}

func clientSecretLabel(providerID string) string { return "oidc client secret " + providerID }

var domainPattern = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$`)

// normalizeDomains returns the e-mail domains lower case, without a
// leading @, each once.
func normalizeDomains(in []string) ([]string, error) {
	var out []string
	for _, d := range in {
		d = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(d), "@"))
		if !domainPattern.MatchString(d) {
			return nil, fmt.Errorf("domain %q: want an e-mail domain such as example.com", d)
		}
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out, nil
}

// discovered is what discovery told of a provider.
type discovered struct {
	provider  *oidc.Provider
	authStyle oauth2.AuthStyle // client_secret_basic (in the header) or client_secret_post (in the body)
	issuer    string
	// issParam: the provider names itself in each authorization response
	// (RFC 9207's authorization_response_iss_parameter_supported), so one
	// without iss is not its.
	issParam bool
	at       time.Time
}

// discover reads the discovery document of issuer.
func discover(ctx context.Context, issuer string) (*discovered, error) {
	ctx, cancel := context.WithTimeout(ctx, providerTimeout)
	defer cancel()
	p, err := oidc.NewProvider(providerContext(ctx, issuer), issuer)
	if err != nil {
		return nil, fmt.Errorf("OpenID Connect discovery at %s/.well-known/openid-configuration: %w", strings.TrimSuffix(issuer, "/"), err)
	}
	var meta struct {
		Issuer      string   `json:"issuer"`
		AuthURL     string   `json:"authorization_endpoint"`
		TokenURL    string   `json:"token_endpoint"`
		JWKSURL     string   `json:"jwks_uri"`
		AuthMethods []string `json:"token_endpoint_auth_methods_supported"`
		IssParam    bool     `json:"authorization_response_iss_parameter_supported"`
	}
	if err := p.Claims(&meta); err != nil {
		return nil, err
	}
	if meta.AuthURL == "" || meta.TokenURL == "" || meta.JWKSURL == "" {
		return nil, fmt.Errorf("the discovery document of %s lacks authorization_endpoint, token_endpoint or jwks_uri", issuer)
	}
	style, err := clientAuthStyle(meta.AuthMethods)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", issuer, err)
	}
	return &discovered{provider: p, authStyle: style, issuer: meta.Issuer, issParam: meta.IssParam}, nil
}

// clientAuthStyle is how the client authenticates at the token endpoint:
// client_secret_basic unless the provider allows only client_secret_post
// (no list means client_secret_basic, as OpenID Connect Discovery says).
func clientAuthStyle(methods []string) (oauth2.AuthStyle, error) {
	switch {
	case len(methods) == 0 || slices.Contains(methods, "client_secret_basic"):
		return oauth2.AuthStyleInHeader, nil
	case slices.Contains(methods, "client_secret_post"):
		return oauth2.AuthStyleInParams, nil
	}
	return 0, fmt.Errorf("the provider allows neither client_secret_basic nor client_secret_post (it allows %s)", strings.Join(methods, ", "))
}

// oidcProviders keeps each provider's discovery for discoveryRefresh, by
// provider id and issuer. Its zero value is ready to use.
type oidcProviders struct {
	mu   sync.Mutex
	byID map[string]*discovered
}

// get returns the discovery of p's issuer, read again when it is older than
// discoveryRefresh (the old one stays when that fails).
func (c *oidcProviders) get(ctx context.Context, p staff.Provider, issuer string, now time.Time) (*discovered, error) {
	key := p.ID + " " + issuer
	c.mu.Lock()
	d := c.byID[key]
	c.mu.Unlock()
	if d != nil && now.Sub(d.at) < discoveryRefresh {
		return d, nil
	}
	fresh, err := discover(ctx, issuer)
	if err != nil {
		if d != nil {
			return d, nil
		}
		return nil, err
	}
	fresh.at = now
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byID == nil {
		c.byID = map[string]*discovered{}
	}
	c.byID[key] = fresh
	return fresh, nil
}

// oidcClient is an OIDC provider ready to use: its settings, the client
// secret opened, and its discovery.
type oidcClient struct {
	staff.Provider
	cfg    OIDCConfig
	secret string
	*discovered
}

// errUnknownProvider is GoTrue's answer to a provider= it does not know.
func errUnknownProvider(name string) *AuthError {
	return newError(http.StatusBadRequest, codeValidationFailed, "Unsupported provider: provider %s could not be found", name)
}

// errProviderUnreachable answers a provider that could not be read.
func errProviderUnreachable(name string) *AuthError {
	return newError(http.StatusBadGateway, codeUnexpectedFailure, "The provider %s could not be reached, please try again later", name)
}

// oidcProvider returns the OIDC provider of that name: 400 for none, 502
// when its discovery fails.
func (s *Service) oidcProvider(ctx context.Context, name string) (oidcClient, *AuthError) {
	if name == "" {
		return oidcClient{}, newError(http.StatusBadRequest, codeValidationFailed, "Unsupported provider: missing provider")
	}
	sctx, cancel := context.WithTimeout(ctx, api.StoreTimeout)
	p, err := s.store.FindProvider(sctx, name)
	cancel()
	switch {
	case errors.Is(err, staff.ErrNotFound) || (err == nil && (p.Kind != staff.KindOIDC || p.Name != name)):
		return oidcClient{}, errUnknownProvider(name)
	case err != nil:
		return oidcClient{}, s.storeFailure("find provider", err)
	}
	cfg, err := OIDCSettings(p)
	if err != nil {
		return oidcClient{}, s.storeFailure("provider settings", err)
	}
	secret, err := s.cfg.MFAKey.Open([]byte(cfg.ClientSecret), clientSecretLabel(p.ID))
	if err != nil {
		return oidcClient{}, s.storeFailure("open client secret of "+p.Name, err)
	}
	d, err := s.oidc.get(ctx, p, cfg.Issuer, s.cfg.Now())
	if err != nil {
		s.cfg.Logger.Warn("auth: provider discovery failed", "provider", p.Name, "err", err)
		return oidcClient{}, errProviderUnreachable(p.Name)
	}
	return oidcClient{Provider: p, cfg: cfg, secret: string(secret), discovered: d}, nil
}

// responseIssuerRefusal checks the iss of an authorization response (RFC
// 9207), which defends against a mix-up: a response that another provider
// sent, carried to this one's callback. It must be c's issuer, and it must
// be there if c says it always sends it. nil when it is right.
func (c oidcClient) responseIssuerRefusal(params url.Values) *federatedRefusal {
	iss, sent := params["iss"]
	switch {
	case !sent && !c.issParam:
		return nil
	case !sent:
		return &federatedRefusal{reason: "response issuer missing",
			e: newError(http.StatusBadRequest, codeBadOAuthCallback, "OAuth callback without the issuer of the provider %s", c.Name)}
	case len(iss) != 1 || iss[0] != c.issuer:
		return &federatedRefusal{reason: "response issuer",
			e: newError(http.StatusBadRequest, codeBadOAuthCallback, "OAuth callback from an issuer other than the provider %s", c.Name)}
	}
	return nil
}

// oauth2Config is the OAuth 2.0 client of c, returning to redirectURL.
func (c oidcClient) oauth2Config(redirectURL string, scopes []string) *oauth2.Config {
	ep := c.provider.Endpoint()
	ep.AuthStyle = c.authStyle
	return &oauth2.Config{ClientID: c.cfg.ClientID, ClientSecret: c.secret, Endpoint: ep, RedirectURL: redirectURL, Scopes: scopes}
}

// scopes are the scopes asked of c: baseScopes, the provider's, and those
// of the request (space- or comma-separated), each once.
func (c oidcClient) scopes(requested string) []string {
	out := slices.Clone(baseScopes)
	extra := append(slices.Clone(c.cfg.Scopes), strings.FieldsFunc(requested, func(r rune) bool { return r == ' ' || r == ',' })...)
	for _, sc := range extra {
		if !slices.Contains(out, sc) {
			out = append(out, sc)
		}
	}
	return out
}

// idTokenClaims are the claims of an ID token this service reads.
type idTokenClaims struct {
	Subject       string `json:"sub"`
	Email         string `json:"email"`
	EmailVerified any    `json:"email_verified"` // a boolean, or "true" (some providers)
	// EmailDomainOwnerVerified is Microsoft Entra's xms_edov (an optional
	// claim): Entra sends no email_verified.
	EmailDomainOwnerVerified any    `json:"xms_edov"`
	Name                     string `json:"name"`
	Picture                  string `json:"picture"`
}

// emailVerified reports whether the provider vouches for the address: its
// email_verified (true or "true"), or, when it sends none, Entra's
// xms_edov.
func (c idTokenClaims) emailVerified() bool {
	if c.EmailVerified != nil {
		return isTrue(c.EmailVerified)
	}
	return isTrue(c.EmailDomainOwnerVerified)
}

func isTrue(v any) bool {
	switch v := v.(type) {
	case bool:
		return v
	case string:
		return v == "true" || v == "1"
	case float64:
		return v == 1
	}
	return false
}

// errBadIDToken is GoTrue's refusal of an ID token that does not verify
// (the detail is logged, not told).
var errBadIDToken = newError(http.StatusBadRequest, codeValidationFailed, "Bad ID token")

// verifyIDToken verifies raw, an ID token of c: signed with one of its keys
// (JWKS), issued by its issuer, not expired, for its client id (aud), with
// a subject, and, when accessToken is not empty and the token has an
// at_hash, issued with that access token. Its nonce is the caller's to
// check. It refuses with GoTrue's 400s.
func (s *Service) verifyIDToken(ctx context.Context, c oidcClient, raw, accessToken string) (*oidc.IDToken, idTokenClaims, *federatedRefusal) {
	var claims idTokenClaims
	ctx, cancel := context.WithTimeout(ctx, providerTimeout)
	defer cancel()
	v := c.provider.Verifier(&oidc.Config{SkipClientIDCheck: true, Now: s.cfg.Now})
	tok, err := v.Verify(providerContext(ctx, c.cfg.Issuer), raw)
	if err == nil && accessToken != "" && tok.AccessTokenHash != "" {
		err = tok.VerifyAccessToken(accessToken)
	}
	if isRefusedAddress(err) { // its JWKS is on another host, inside the network
		s.cfg.Logger.Warn("auth: provider call refused", "provider", c.Name, "err", err)
		return nil, claims, &federatedRefusal{reason: "provider unreachable", e: errProviderUnreachable(c.Name)}
	}
	if err != nil {
		s.cfg.Logger.Info("auth: ID token refused", "provider", c.Name, "err", err)
		return nil, claims, &federatedRefusal{reason: idTokenRefusalReason(err), e: errBadIDToken}
	}
	if !slices.Contains(tok.Audience, c.cfg.ClientID) {
		return nil, claims, &federatedRefusal{reason: "audience",
			e: newError(http.StatusBadRequest, codeValidationFailed, "Unacceptable audience in id_token: %v", tok.Audience)}
	}
	if err := tok.Claims(&claims); err != nil || claims.Subject == "" {
		return nil, claims, &federatedRefusal{reason: "no subject", e: newError(http.StatusBadRequest, codeValidationFailed, "Missing sub claim in id_token")}
	}
	return tok, claims, nil
}

// idTokenRefusalReason names why go-oidc refused an ID token, for the log
// and the audit.
func idTokenRefusalReason(err error) string {
	var expired *oidc.TokenExpiredError
	why := err.Error()
	switch {
	case errors.As(err, &expired):
		return "id token expired"
	case strings.Contains(why, "issued by a different provider"):
		return "id token issuer"
	case strings.Contains(why, "failed to verify signature"):
		return "id token signature"
	case strings.Contains(why, "access token hash"):
		return "id token at_hash"
	}
	return "id token invalid"
}

// nonceMatches compares a token's nonce with the expected one in constant
// time; both must be set.
func nonceMatches(got, want string) bool {
	return got != "" && want != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// person is who the verified claims of c's token say signed in.
func (c oidcClient) person(tok *oidc.IDToken, claims idTokenClaims) federatedPerson {
	data := map[string]any{"iss": tok.Issuer, "sub": claims.Subject, "provider_id": claims.Subject,
		"email": claims.Email, "email_verified": claims.emailVerified()}
	if claims.Name != "" {
		data["name"], data["full_name"] = claims.Name, claims.Name
	}
	if claims.Picture != "" {
		data["picture"], data["avatar_url"] = claims.Picture, claims.Picture
	}
	return federatedPerson{Provider: c.Provider, Subject: claims.Subject, Email: claims.Email,
		EmailVerified: claims.emailVerified(), Data: data, Method: MethodOAuth}
}
