package staff

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"

	"studio/internal/notify"
)

// Federated sign-in: staff sign in at the studio's identity provider (SAML
// single sign-on, or OpenID Connect) instead of with a mailed code. This
// file holds the nouns the service and the store share; oidc.go and saml.go
// speak to the providers, and finish.go ends every sign-in the same way.

// Kinds of identity provider.
const (
	KindSAML = "saml"
	KindOIDC = "oidc"
)

// Provider is an identity provider an operator added ("studio sso add",
// "studio oauth add").
type Provider struct {
	ID       string // UUID
	Kind     string // KindSAML or KindOIDC
	Name     string // what identities and provider= name: as given (OIDC), "sso:<ID>" (SAML)
	EntityID string // SAML: the IdP's entity id; "" for OIDC
	// Domains are the e-mail domains (lower case) whose people the provider
	// may add as staff on their first sign-in; for SAML, also the domains
	// POST /sso finds it by.
	Domains   []string
	Config    json.RawMessage // the kind's settings (OIDCConfig, SAMLConfig), secrets sealed
	CreatedAt time.Time
}

// SSOName is the name of the identities of the SAML provider id.
func SSOName(id string) string { return "sso:" + id }

// Label is how a person is told of the provider: an OIDC provider's name,
// a SAML provider's entity id.
func (p Provider) Label() string {
	if p.Kind == KindSAML && p.EntityID != "" {
		return p.EntityID
	}
	return p.Name
}

// AllowsDomainOf reports whether the provider may add the person with the
// address email as staff.
func (p Provider) AllowsDomainOf(email string) bool {
	d := emailDomain(email)
	return d != "" && slices.Contains(p.Domains, d)
}

// Identity ties a person at a provider to a member of staff.
type Identity struct {
	ID           string // UUID, the identity_id
	UserID       string
	Provider     string // Provider.Name
	Subject      string // the person at the provider (sub, NameID)
	Email        string
	Data         map[string]any // the provider's claims, as GoTrue's identity_data
	CreatedAt    time.Time
	UpdatedAt    time.Time
	LastSignInAt *time.Time
}

// FlowState is a sign-in sent to a provider, kept until it comes back.
type FlowState struct {
	StateHash string // StateHash of the state (OIDC) or RelayState (SAML)
	Provider  string // Provider.Name
	// RequestID is the SAML AuthnRequest's ID (InResponseTo), or the OIDC
	// nonce.
	RequestID string
	// ProviderVerifier is the PKCE verifier this service sent the OIDC
	// provider the challenge of.
	ProviderVerifier string
	RedirectTo       string // where the sign-in returns: allowed by --redirect-urls
	// CodeChallenge and its method are the client's PKCE: the sign-in then
	// returns an auth code for grant_type=pkce, not tokens.
	CodeChallenge       string
	CodeChallengeMethod string
	LinkUserID          string // set when a signed-in person links the provider
	CreatedAt           time.Time
	ExpiresAt           time.Time
}

// PKCE reports whether the client asked for an auth code.
func (f FlowState) PKCE() bool { return f.CodeChallenge != "" }

// StateHash is what the store keeps of a flow's state.
func StateHash(state string) string { return LinkHash(state) }

// FederatedStore keeps the providers, identities and flows of federated
// sign-in; package store implements it with Store.
type FederatedStore interface {
	// AddProvider stores p with its domains; ErrExists when its name,
	// entity id or an SSO domain is another provider's.
	AddProvider(ctx context.Context, p Provider, audit AuditEntry) error
	// Providers returns every provider, oldest first.
	Providers(ctx context.Context) ([]Provider, error)
	// FindProvider returns the provider of that name or id, or the SAML
	// provider of the SSO domain; ErrNotFound for none.
	FindProvider(ctx context.Context, nameOrID string) (Provider, error)
	FindSSOProviderByDomain(ctx context.Context, domain string) (Provider, error)
	// UpdateProviderConfig replaces the settings of the provider id (SAML
	// metadata fetched again); ErrNotFound for none.
	UpdateProviderConfig(ctx context.Context, id string, config json.RawMessage) error
	// RemoveProvider removes the provider and its identities (its entity id
	// and domains are free again); ErrNotFound for none.
	RemoveProvider(ctx context.Context, id string, audit AuditEntry) (Provider, error)

	// CreateFlowState stores f, pruning flows expired before f.CreatedAt.
	CreateFlowState(ctx context.Context, f FlowState) error
	// ConsumeFlowState removes and returns the flow of stateHash;
	// ErrNotFound for none (or one used), ErrFlowStateExpired for one that
	// expired at now.
	ConsumeFlowState(ctx context.Context, stateHash string, now time.Time) (FlowState, error)
	// UseAssertion records a SAML assertion's id until expires; ErrExists
	// when it was used before (a replay).
	UseAssertion(ctx context.Context, id string, expires, now time.Time) error

	// FindIdentity returns the identity of subject at provider; ErrNotFound
	// for none.
	FindIdentity(ctx context.Context, provider, subject string) (Identity, error)
	// SaveIdentity stores id. Without link, id is an identity the user
	// has, signing in again: its data and sign-in time are updated;
	// ErrNotFound when it is gone (unlinked meanwhile). With link, id is
	// new, tied to the user as link says; ErrExists when the identity is
	// another user's (or link.NewUser's address is staff's already),
	// ErrUnlinked when link.ByDomain and the user unlinked this provider.
	// audit (and link.Mail) are kept with it.
	SaveIdentity(ctx context.Context, id Identity, link *Link, audit AuditEntry) error
	// RemoveIdentity removes the user's identity, and remembers that they
	// unlinked its provider (SaveIdentity); ErrNotFound for none.
	RemoveIdentity(ctx context.Context, userID, identityID string, audit AuditEntry) error
	// AddAudit adds e to the audit log on its own: a refused sign-in that
	// changes nothing else.
	AddAudit(ctx context.Context, e AuditEntry) error
	// SAMLKey returns the site's SAML key pair (sealed key, certificate),
	// storing candidate first when there is none.
	SAMLKey(ctx context.Context, candidate SAMLKeyPair) (SAMLKeyPair, error)
}

// Link is how a new identity came to be tied to a member of staff: made
// by the person (linkIdentity) or by staff ("studio staff link"), or, with
// ByDomain, because its provider may vouch for the address's domain.
type Link struct {
	// ByDomain: the provider vouched for the address's domain; refused
	// (ErrUnlinked) once the person unlinked that provider. A link made by
	// the person or by staff lifts that.
	ByDomain bool
	// NewUser, when set, is the member of staff the identity adds, in the
	// same transaction (a provider's first sign-in of its domain's person).
	NewUser *User
	// Mail tells the person that a sign-in method was added; nil when mail
	// is off.
	Mail *notify.Email
}

// ErrUnlinked: the person unlinked the provider, which may then not tie
// itself to them again on its own.
var ErrUnlinked = errors.New("the person unlinked this provider")

// SAMLKeyPair is the service provider's key (PKCS #8 DER, sealed) and its
// self-signed certificate (DER).
type SAMLKeyPair struct {
	PrivateKey  []byte
	Certificate []byte
	CreatedAt   time.Time
}

// Audit actions of federated sign-in.
const (
	ActionProviderAdded    = "provider_added"
	ActionProviderRemoved  = "provider_removed"
	ActionIdentityLinked   = "identity_linked"
	ActionIdentityUnlinked = "identity_unlinked"
)

// emailDomain is the lower-case domain of an address, "" when it has none.
func emailDomain(email string) string {
	at := strings.LastIndexByte(email, '@')
	if at < 0 {
		return ""
	}
	return strings.ToLower(strings.TrimSpace(email[at+1:]))
}
