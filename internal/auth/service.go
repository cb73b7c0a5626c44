package auth

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"studio/internal/api"
	"studio/internal/auth/federated"
	"studio/internal/auth/gotrue"
	"studio/internal/captcha"
	"studio/internal/cors"
	"studio/internal/ratelimit"
	"studio/internal/secretkey"
	"studio/internal/staff"
)

// Limits of the service.
const (
	// EmailInterval is the least time between two sign-in mails to one
	// address.
	EmailInterval = 60 * time.Second
	// RefreshReuseGrace is how long a used refresh token may be used again
	// (a client that lost the answer, two tabs refreshing at once) before
	// its reuse ends the session.
	RefreshReuseGrace = 10 * time.Second
	// keyReloadInterval is how often an unknown kid may make the service
	// read the store's keys again (another server may have rotated them).
	keyReloadInterval = 10 * time.Second
)

// Config configures the service.
type Config struct {
	// SiteOrigin is the public origin of the site (https://studio.example):
	// the access tokens' issuer is SiteOrigin/auth/v1, and mailed links
	// point into the site.
	SiteOrigin string
	JWTExpiry  time.Duration // access token lifetime; 1 h when zero
	OTPExpiry  time.Duration // code and link lifetime; 10 min when zero
	// MailFrom is the sender of sign-in mails; empty means mail is off
	// (codes come from "studio staff sign-in-code" only).
	MailFrom string
	// MailQueued, when set, is called after a mail was committed to the
	// outbox (it wakes the sender).
	MailQueued func()
	// RateLimit is how many /otp and /verify requests one client IP may
	// make; RefreshRateLimit how many /token requests. Zero: no limit.
	RateLimit        ratelimit.Rate
	RefreshRateLimit ratelimit.Rate
	// Buckets, when set, keeps those limits where every server on one store
	// shares them (PostgreSQL); BucketsUnreachable is told when it could not
	// be used (the limits then count in this process).
	Buckets            ratelimit.Buckets
	BucketsUnreachable func(error)
	// RateLimited, when set, is told the limit of each request it refused;
	// SignIn the result of each attempt to sign in ("ok" or an error code).
	RateLimited func(limit string)
	SignIn      func(result string)
	// AllowedOrigins may call the service from other sites (CORS).
	AllowedOrigins []string
	// Redirects are the pages a mailed link may open (redirect_to); nil:
	// the site's /admin and everything under it.
	Redirects *RedirectAllowList
	// ClientIP is the address of the client that made r (the server knows
	// which proxies to believe); RemoteAddr's host when nil.
	ClientIP func(r *http.Request) string
	// RequireMFA makes Authorize refuse every session below aal2, so a
	// person must enrol and verify a TOTP factor before they see any data
	// (the /auth/v1 endpoints, enrolment included, still work at aal1).
	RequireMFA bool
	// MFAKey is the secret key (--secret-key) that seals the TOTP secrets
	// and the signing keys in the store; nil: a random key for this
	// process only (what it sealed is lost at restart).
	MFAKey *secretkey.SecretKey
	// FailedCodeFloor is the least time /verify takes to refuse a typed
	// code, so that the time does not tell whether the address is staff's
	// (the store does the same work either way; this hides what is left);
	// 50 ms when zero.
	FailedCodeFloor time.Duration
	// MFAChallengeExpiry is how long a challenge may be verified; 5 min
	// when zero.
	MFAChallengeExpiry time.Duration
	// SessionTimebox ends a session that long after its sign-in, and
	// SessionInactivityTimeout one not refreshed for that long (GoTrue's
	// session_expired); zero: no limit.
	SessionTimebox           time.Duration
	SessionInactivityTimeout time.Duration
	Now                      func() time.Time
	Logger                   *slog.Logger

	// Captcha, when set, must accept the CAPTCHA token of every request to
	// /otp, /verify, /recover and /resend (checkCaptcha); nil: none needed.
	Captcha *captcha.Verifier
	// SMS, when set, sends the codes of phone sign-in and of phone second
	// factors (phone.go); nil: phone is not offered.
	SMS SMSSender
}

// Service is the /auth/v1 service. It is safe for concurrent use.
type Service struct {
	cfg    Config
	store  staff.Store
	issuer string
	mux    *http.ServeMux
	cors   cors.Policy

	limitOTP, limitVerify, limitToken namedLimit
	limitSSO                          namedLimit // POST /sso and the SAML ACS

	federated *federated.Handlers // SAML, OpenID Connect and OAuth sign-in (federatedhost.go)

	keysMu         sync.Mutex
	keys           *Keys
	keysLoaded     time.Time
	unsealedLogged bool
	keyChecked     bool            // the secret key is the store's (CheckSecretKey)
	mismatchLogged bool            // that it is not was logged
	skippedLogged  map[string]bool // kids of the unreadable keys logged

	verified tokenCache

	background      sync.WaitGroup // mailCode's work after the answer
	backgroundSlots chan struct{}  // at most MaxBackground of it at once
}

// MaxBackground is how many requests' work after the answer (looking up an
// address and mailing it a code) runs at once; a request beyond waits for a
// slot before its answer goes out, whoever the address belongs to.
const MaxBackground = 32

// New returns the service on st. The signing keys are read (or the first
// one made) on first use, so a store that is down at start delays nothing.
func New(st staff.Store, cfg Config) *Service {
	if cfg.JWTExpiry <= 0 {
		cfg.JWTExpiry = time.Hour
	}
	if cfg.OTPExpiry <= 0 {
		cfg.OTPExpiry = 10 * time.Minute
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.FailedCodeFloor <= 0 {
		cfg.FailedCodeFloor = 50 * time.Millisecond
	}
	if cfg.MFAChallengeExpiry <= 0 {
		cfg.MFAChallengeExpiry = 5 * time.Minute
	}
	if cfg.MFAKey == nil {
		key, err := secretkey.NewRandomSecretKey()
		if err != nil {
			panic(err) // crypto/rand does not fail
		}
		cfg.MFAKey = key
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Redirects == nil {
		var err error
		if cfg.Redirects, err = NewRedirectAllowList(cfg.SiteOrigin, nil); err != nil {
			cfg.Redirects = &RedirectAllowList{fallback: url.URL{Path: ConsolePath}} // no origin: links relative to the site
		}
	}
	if cfg.ClientIP == nil {
		cfg.ClientIP = func(r *http.Request) string {
			host, _, err := net.SplitHostPort(r.RemoteAddr)
			if err != nil {
				return r.RemoteAddr
			}
			return host
		}
	}
	s := &Service{
		cfg: cfg, store: st, issuer: strings.TrimSuffix(cfg.SiteOrigin, "/") + "/auth/v1",
		limitOTP:    newNamedLimit("auth/otp", cfg.RateLimit, cfg),
		limitVerify: newNamedLimit("auth/verify", cfg.RateLimit, cfg),
		limitToken:  newNamedLimit("auth/token", cfg.RefreshRateLimit, cfg),
		limitSSO:    newNamedLimit("auth/sso", cfg.RateLimit, cfg),
		cors: cors.Policy{Origins: cfg.AllowedOrigins, AllowMethods: "GET, POST, PUT, DELETE, OPTIONS",
			AllowHeaders: corsAllowHeaders, ExposeHeaders: corsExposeHeaders, MaxAge: 10 * time.Minute},
		backgroundSlots: make(chan struct{}, MaxBackground),
	}
	s.federated = federated.New(st, federated.Config{Issuer: s.issuer, SiteOrigin: cfg.SiteOrigin, MailFrom: cfg.MailFrom,
		SecretKey: cfg.MFAKey, Now: cfg.Now, Logger: cfg.Logger}, federatedHost{s})
	s.mux = http.NewServeMux()
	s.addRoutes(s.mux)
	return s
}

// Prefix is where the service is mounted.
const Prefix = "/auth/v1"

// addRoutes registers every route of the service, relative to Prefix.
func (s *Service) addRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /settings", s.handleSettings)
	mux.HandleFunc("GET /health", s.handleHealth)
	mux.HandleFunc("GET /.well-known/jwks.json", s.HandleJWKS)
	mux.HandleFunc("POST /otp", s.handleOTP)
	mux.HandleFunc("POST /verify", s.handleVerify)
	mux.HandleFunc("POST /recover", s.handleRecover)
	mux.HandleFunc("POST /resend", s.handleResend)
	mux.HandleFunc("POST /token", s.handleToken)
	mux.HandleFunc("GET /user", s.handleUserGet)
	mux.HandleFunc("PUT /user", s.handleUserUpdate)
	mux.HandleFunc("GET /reauthenticate", s.handleReauthenticate)
	mux.HandleFunc("POST /logout", s.handleLogout)
	mux.HandleFunc("POST /factors", s.handleEnroll)
	mux.HandleFunc("POST /factors/{id}/challenge", s.handleChallenge)
	mux.HandleFunc("POST /factors/{id}/verify", s.handleFactorVerify)
	mux.HandleFunc("DELETE /factors/{id}", s.handleUnenroll)
	mux.HandleFunc("DELETE /user/identities/{id}", s.handleUnlinkIdentity)
	s.federated.AddRoutes(mux)
	mux.HandleFunc("OPTIONS /", s.handlePreflight)
	mux.HandleFunc("/", s.handleOther)
}

// ServeHTTP serves a request to a path under Prefix.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodOptions { // a preflight is handlePreflight's
		s.cors.Annotate(w, r)
	}
	http.StripPrefix(Prefix, s.mux).ServeHTTP(w, r)
}

// The CORS headers: those the official client sends, and those it reads.
const (
	corsAllowHeaders  = "authorization, apikey, x-client-info, x-supabase-api-version, content-type"
	corsExposeHeaders = "x-supabase-api-version, x-sb-error-code"
)

// handlePreflight handles OPTIONS under /auth/v1: the CORS preflight. Only
// --allowed-origins pass.
func (s *Service) handlePreflight(w http.ResponseWriter, r *http.Request) {
	if !s.cors.Preflight(w, r) {
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusForbidden, gotrue.CodeValidationFailed, "Origin not allowed"))
	}
}

// knownPaths are the paths of routes, for the 405 answers.
var knownPaths = append([]string{"/settings", "/health", "/.well-known/jwks.json", "/otp", "/verify", "/recover", "/resend",
	"/token", "/user", "/reauthenticate", "/logout", "/factors"}, federated.Paths...)

// notOffered are GoTrue's endpoints this service leaves out, with why.
var notOffered = map[string]string{
	"/signup":    "Sign-ups are disabled: staff are added by an operator",
	"/magiclink": "Use /otp to ask for a sign-in code",
	"/invite":    "Invitations are not offered: staff are added by an operator",
}

// handleOther answers every other request: 405 for a route's path, a
// clear 404 for GoTrue's endpoints that are not offered, 404 otherwise.
func (s *Service) handleOther(w http.ResponseWriter, r *http.Request) {
	if slices.Contains(knownPaths, r.URL.Path) {
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusMethodNotAllowed, gotrue.CodeMethodNotAllowed, "Method %s is not allowed on %s", r.Method, r.URL.Path))
		return
	}
	if why, ok := notOffered[r.URL.Path]; ok {
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusNotFound, gotrue.CodeNotFound, "%s", why))
		return
	}
	gotrue.WriteError(w, r, gotrue.NewError(http.StatusNotFound, gotrue.CodeNotFound, "No such endpoint"))
}

// signingKeys returns the keys, reading them from the store on first use
// and every KeyRefreshInterval (a rotation made elsewhere); with reload (an
// unknown kid), also when the last read is keyReloadInterval old.
func (s *Service) signingKeys(ctx context.Context, reload bool) (*Keys, error) {
	s.keysMu.Lock()
	defer s.keysMu.Unlock()
	now := s.cfg.Now()
	age := now.Sub(s.keysLoaded)
	if s.keys != nil && age < KeyRefreshInterval && (!reload || age < keyReloadInterval) {
		return s.keys, nil
	}
	err := s.checkSecretKey(ctx)
	var k *Keys
	if err == nil { // a store that cannot be read is asked once, not twice
		k, err = LoadKeys(ctx, s.store, s.cfg.MFAKey, now)
	}
	if err != nil {
		if s.keys != nil {
			return s.keys, nil
		}
		return nil, err
	}
	if len(k.Unsealed) > 0 && !s.unsealedLogged {
		s.unsealedLogged = true
		s.cfg.Logger.Warn("signing keys are stored in clear: once every server runs this release, seal them with studio keys seal",
			"kids", strings.Join(k.Unsealed, ","))
	}
	for _, u := range k.Unreadable {
		if !s.skippedLogged[u.KID] {
			if s.skippedLogged == nil {
				s.skippedLogged = map[string]bool{}
			}
			s.skippedLogged[u.KID] = true
			s.cfg.Logger.Error("auth: a signing key this server cannot open is skipped", "kid", u.KID, "err", u.Err)
		}
	}
	s.keys, s.keysLoaded = k, now
	return k, nil
}

// checkSecretKey checks, until it once succeeds, that the secret key is the
// store's (CheckSecretKey); while it is not, the key refuses to seal, and
// that is logged once. It returns the error of a store that cannot be read
// (tried again on the next call). Called with keysMu held.
func (s *Service) checkSecretKey(ctx context.Context) error {
	ks, ok := s.store.(secretkey.KeyCheckStore)
	if s.keyChecked || !ok {
		return nil
	}
	switch err := secretkey.CheckSecretKey(ctx, ks, s.cfg.MFAKey); {
	case err == nil:
		s.keyChecked = true
		s.cfg.MFAKey.RefuseToSeal(nil)
	case secretkey.IsKeyMismatch(err):
		s.cfg.MFAKey.RefuseToSeal(err)
		if !s.mismatchLogged {
			s.mismatchLogged = true
			s.cfg.Logger.Error("auth: " + err.Error())
		}
	default:
		return fmt.Errorf("check the secret key: %w", err)
	}
	return nil
}

// CheckSecretKey checks now that the secret key is the store's, as the
// first read of the signing keys would: a server calls it as it starts, so
// that the store records its key (and a command given another refuses to
// seal) before anyone signs in. A store that cannot be read is checked again
// later.
func (s *Service) CheckSecretKey(ctx context.Context) {
	s.keysMu.Lock()
	defer s.keysMu.Unlock()
	_ = s.checkSecretKey(ctx)
}

// SigningKeysReady reports whether this server can sign: nil, or why not
// (a *NoSigningKeyError when no key opens with its secret key), for
// /readyz.
func (s *Service) SigningKeysReady(ctx context.Context) error {
	_, err := s.signingKeys(ctx, false)
	return err
}

// countSignIn tells Config.SignIn the result of an attempt to sign in.
func (s *Service) countSignIn(result string) {
	if s.cfg.SignIn != nil {
		s.cfg.SignIn(result)
	}
}

// namedLimit is a per-client rate limit of the service and its name (for
// the shared buckets and the metrics).
type namedLimit struct {
	name string
	ratelimit.Allower
}

func newNamedLimit(name string, r ratelimit.Rate, cfg Config) namedLimit {
	return namedLimit{name, ratelimit.For(name, r, cfg.Buckets, cfg.Now, cfg.BucketsUnreachable)}
}

// allow takes one request of the client from lim, or answers 429.
func (s *Service) allow(w http.ResponseWriter, r *http.Request, lim namedLimit) bool {
	ok, retry := lim.Allow(ratelimit.ClientKey(s.cfg.ClientIP(r)))
	if ok {
		return true
	}
	if s.cfg.RateLimited != nil {
		s.cfg.RateLimited(lim.name)
	}
	api.SetRetryAfter(w, retry)
	gotrue.WriteError(w, r, gotrue.NewError(http.StatusTooManyRequests, gotrue.CodeOverRequestRateLimit, "Request rate limit reached"))
	return false
}

// failed answers an error of op the handler did not expect (most often the
// store's) by its kind: logged, and answered with gotrue.KindError.
func (s *Service) failed(w http.ResponseWriter, r *http.Request, op string, err error) {
	gotrue.WriteError(w, r, s.storeFailure(op, err, "path", r.URL.Path))
}

func (s *Service) audit(r *http.Request, action string) staff.AuditEntry {
	return staff.AuditEntry{At: s.cfg.Now(), Action: action, IP: s.cfg.ClientIP(r)}
}

func withStoreTimeout(r *http.Request) (context.Context, context.CancelFunc) {
	return context.WithTimeout(r.Context(), api.StoreTimeout)
}
