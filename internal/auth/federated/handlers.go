package federated

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"studio/internal/api"
	"studio/internal/auth/gotrue"
	"studio/internal/secretkey"
	"studio/internal/staff"
)

// Config configures the handlers; package auth fills it from its own.
type Config struct {
	// Issuer is the URL of the /auth/v1 service (SiteOrigin + /auth/v1),
	// under which the callback and the SP's endpoints are.
	Issuer string
	// SiteOrigin is the public origin of the site (the SP certificate's
	// name, the site a link mail names); MailFrom the sender of that mail,
	// empty when mail is off.
	SiteOrigin string
	MailFrom   string
	// SecretKey seals the SP's key and opens the providers' client
	// secrets.
	SecretKey *secretkey.SecretKey
	Now       func() time.Time
	Logger    *slog.Logger
}

// Handlers are the endpoints of federated sign-in under /auth/v1: SAML
// (POST /sso, the SP's metadata and ACS), OpenID Connect (GET /authorize,
// /callback, the linking of an identity, the id_token grant) and the finish
// step they share. They are safe for concurrent use.
type Handlers struct {
	store staff.Store
	cfg   Config
	host  Host

	spKey    spKey       // the SAML service provider's key, once read (samlsp.go)
	oidc     Discoveries // the OIDC providers' discovery (oidcclient.go)
	samlMeta SAMLFetches // when each SAML provider's metadata was last fetched again (samlsettings.go)
}

// New returns the handlers on st, mounted by host.
func New(st staff.Store, cfg Config, host Host) *Handlers {
	return &Handlers{store: st, cfg: cfg, host: host}
}

// Paths are the paths of AddRoutes' routes, relative to the service's
// prefix.
var Paths = []string{"/authorize", CallbackPath, "/user/identities/authorize", "/sso", SAMLMetadataPath, SAMLACSPath}

// AddRoutes registers the handlers' routes on mux, relative to the
// service's prefix. The id_token grant is IDTokenGrant, which POST /token
// calls.
func (h *Handlers) AddRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /authorize", h.handleAuthorize)
	mux.HandleFunc("GET "+CallbackPath, h.handleCallback)
	mux.HandleFunc("POST "+CallbackPath, h.handleCallback)
	mux.HandleFunc("GET /user/identities/authorize", h.handleLinkIdentity)
	mux.HandleFunc("POST /sso", h.handleSSO)
	mux.HandleFunc("GET "+SAMLMetadataPath, h.handleSAMLMetadata)
	mux.HandleFunc("POST "+SAMLACSPath, h.handleSAMLACS)
}

// failed answers an error of op the handler did not expect (most often the
// store's): logged, and answered by its kind.
func (h *Handlers) failed(w http.ResponseWriter, r *http.Request, op string, err error) {
	gotrue.WriteError(w, r, h.storeFailure(op, err, "path", r.URL.Path))
}

// storeFailure logs err, the unexpected failure of op, and returns its
// answer (gotrue.Failure).
func (h *Handlers) storeFailure(op string, err error, logArgs ...any) *gotrue.Error {
	return gotrue.Failure(h.cfg.Logger, op, err, logArgs...)
}

func withStoreTimeout(r *http.Request) (context.Context, context.CancelFunc) {
	return context.WithTimeout(r.Context(), api.StoreTimeout)
}
