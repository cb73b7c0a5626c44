package federated

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/google/uuid"
	"golang.org/x/oauth2"

	"studio/internal/secretkey"
	"studio/internal/staff"
)

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
	// ProviderTimeout bounds every call to a provider: discovery, its
	// keys, the code exchange.
	ProviderTimeout = 10 * time.Second
	// maxProviderResponse bounds the body of each of its answers.
	maxProviderResponse = 1 << 20
	// discoveryRefresh is how long a provider's discovery is used before
	// it is read again (a failed read keeps the one there is). Its keys
	// are read again whenever a token names a key not seen yet.
	discoveryRefresh = time.Hour
)

// BaseScopes are asked of every provider: the ID token, and the person's
// address and name in it.
var BaseScopes = []string{oidc.ScopeOpenID, "email", "profile"}

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
	if _, err := Discover(ctx, spec.Issuer); err != nil {
		return staff.Provider{}, err
	}
	id := uuid.NewString()
	sealed, err := key.Seal([]byte(spec.ClientSecret), ClientSecretLabel(id))
	if err != nil {
		return staff.Provider{}, err
	}
	cfg, err := json.Marshal(OIDCConfig{Issuer: spec.Issuer, ClientID: spec.ClientID, ClientSecret: string(sealed), Scopes: spec.Scopes})
	if err != nil {
		return staff.Provider{}, err
	}
	return staff.Provider{ID: id, Kind: staff.KindOIDC, Name: spec.Name, Domains: domains, Config: cfg, CreatedAt: now}, nil
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

func ClientSecretLabel(providerID string) string { return "oidc client secret " + providerID }

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

// Discovery is what discovery told of a provider.
type Discovery struct {
	OIDC      *oidc.Provider
	AuthStyle oauth2.AuthStyle // client_secret_basic (in the header) or client_secret_post (in the body)
	Issuer    string
	// IssParam: the provider names itself in each authorization response
	// (RFC 9207's authorization_response_iss_parameter_supported), so one
	// without iss is not its.
	IssParam bool
	at       time.Time
}

// Discover reads the discovery document of issuer.
func Discover(ctx context.Context, issuer string) (*Discovery, error) {
	ctx, cancel := context.WithTimeout(ctx, ProviderTimeout)
	defer cancel()
	p, err := oidc.NewProvider(ProviderContext(ctx, issuer), issuer)
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
	return &Discovery{OIDC: p, AuthStyle: style, Issuer: meta.Issuer, IssParam: meta.IssParam}, nil
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

// Discoveries keeps each provider's discovery for discoveryRefresh, by
// provider id and issuer. Its zero value is ready to use.
type Discoveries struct {
	mu   sync.Mutex
	byID map[string]*Discovery
}

// Get returns the discovery of p's issuer, read again when it is older than
// discoveryRefresh (the old one stays when that fails).
func (c *Discoveries) Get(ctx context.Context, p staff.Provider, issuer string, now time.Time) (*Discovery, error) {
	key := p.ID + " " + issuer
	c.mu.Lock()
	d := c.byID[key]
	c.mu.Unlock()
	if d != nil && now.Sub(d.at) < discoveryRefresh {
		return d, nil
	}
	fresh, err := Discover(ctx, issuer)
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
		c.byID = map[string]*Discovery{}
	}
	c.byID[key] = fresh
	return fresh, nil
}

// IDTokenClaims are the claims of an ID token this service reads.
type IDTokenClaims struct {
	Subject       string `json:"sub"`
	Email         string `json:"email"`
	EmailVerified any    `json:"email_verified"` // a boolean, or "true" (some providers)
	// EmailDomainOwnerVerified is Microsoft Entra's xms_edov (an optional
	// claim): Entra sends no email_verified.
	EmailDomainOwnerVerified any    `json:"xms_edov"`
	Name                     string `json:"name"`
	Picture                  string `json:"picture"`
}

// EmailIsVerified reports whether the provider vouches for the address: its
// email_verified (true or "true"), or, when it sends none, Entra's
// xms_edov.
func (c IDTokenClaims) EmailIsVerified() bool {
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

// IDTokenRefusalReason names why go-oidc refused an ID token, for the log
// and the audit.
func IDTokenRefusalReason(err error) string {
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

// NonceMatches compares a token's nonce with the expected one in constant
// time; both must be set.
func NonceMatches(got, want string) bool {
	return got != "" && want != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}
