package server

import (
	"errors"
	"log/slog"
	"net/http"
	"net/netip"
	"slices"
	"time"

	"studio/internal/analytics"
	"studio/internal/captcha"
	"studio/internal/contact"
	"studio/internal/cors"
	"studio/internal/fault"
	"studio/internal/form"
	"studio/internal/metrics"
	"studio/internal/ratelimit"
	"studio/internal/signup"
)

// The backend functions keep the wire contract of the hosted backend the
// site was designed for (Supabase Edge Functions): POST a JSON body to
// /functions/v1/<name>; a response whose JSON has "error" is a failure. The
// official client's functions.invoke works unchanged against them. They
// also take the site's forms posted natively by a browser without
// JavaScript (application/x-www-form-urlencoded): the same fields, decoded
// into the same JSON object and run through the same decoder, rate limit and
// store, answered with 303 See Other to a page.
//
// This file holds what the functions share as routes (configuration, CORS,
// the answers for other methods and names); call.go runs one call and
// answers it; problems.go names the pages a failed form post goes to;
// contact.go and signup.go are the functions (decision 0013).

// FunctionsConfig configures the backend functions.
type FunctionsConfig struct {
	// RateLimit is how many submissions one client may make to each function;
	// the zero Rate means no limit.
	RateLimit ratelimit.Rate
	// TrustedProxies are the addresses whose X-Forwarded-For and
	// X-Forwarded-Proto are believed (also by the security headers: HSTS).
	TrustedProxies []netip.Prefix
	// AllowedOrigins may call the functions from other sites (CORS); empty
	// means same origin only.
	AllowedOrigins []string
	// Now is the rate limit's clock; time.Now when nil.
	Now func() time.Time
	// Buckets, when set, keeps the rate limit where every server on one
	// store shares it (PostgreSQL); otherwise it counts in this process.
	Buckets ratelimit.Buckets
	// BucketsUnreachable is told when Buckets could not be used (the limit
	// then counts in this process).
	BucketsUnreachable func(error)
	// Captcha, when set (--captcha-forms), must accept the captcha_token of
	// every call (captcha.go); without it, a captcha_token is ignored.
	Captcha *captcha.Verifier
}

// errNoStore is the failure of a function run by a server without a store
// (Deps.Contact or Deps.Signup not set): answered as an unavailable one.
var errNoStore = fault.Mark(fault.Unavailable, errors.New("the server has no store"))

// functionNames are the functions, for the 405 and 404 answers.
var functionNames = []string{"submit-contact", "join-waitlist", "subscribe-newsletter"}

// functions holds what the function handlers share.
type functions struct {
	contact *contact.Service
	signup  *signup.Service
	cfg     FunctionsConfig
	logger  *slog.Logger
	limits  map[string]ratelimit.Allower // by function name
	metrics *metrics.Metrics
	cors    cors.Policy
	// analytics counts a success as its function's goal; nil when off.
	analytics *analytics.Counter
}

// corsAllowHeaders are the request headers a cross-origin caller may send:
// those of the official client (authorization, apikey, x-client-info,
// x-region), the body's content-type and the Idempotency-Key.
const corsAllowHeaders = "authorization, apikey, content-type, x-client-info, x-region, idempotency-key"

func newFunctions(d Deps) *functions {
	f := &functions{contact: d.Contact, signup: d.Signup, cfg: d.Functions, logger: d.Logger, limits: map[string]ratelimit.Allower{}, analytics: d.Analytics,
		metrics: d.Metrics, cors: cors.Policy{
			Origins: d.Functions.AllowedOrigins, AllowMethods: "POST, OPTIONS", AllowHeaders: corsAllowHeaders, MaxAge: 10 * time.Minute,
		}}
	for _, name := range functionNames {
		f.limits[name] = ratelimit.For("functions/"+name, d.Functions.RateLimit, d.Functions.Buckets, d.Functions.Now, d.Functions.BucketsUnreachable)
	}
	return f
}

// handleFunctionOther handles any other method on /functions/v1/{name}:
// 405 with Allow for a function, 404 for a name that is none.
func (f *functions) handleFunctionOther(w http.ResponseWriter, r *http.Request) {
	if !slices.Contains(functionNames, r.PathValue("name")) {
		writeError(w, http.StatusNotFound, "Function not found")
		return
	}
	w.Header().Set("Allow", "OPTIONS, POST")
	writeError(w, http.StatusMethodNotAllowed, form.Rules.Errors.MethodNotAllowed)
}

// handleFunctionPreflight handles OPTIONS /functions/v1/{name}: the CORS
// preflight. Only origins in --allowed-origins pass; with none configured,
// cross-origin calls are refused (403).
func (f *functions) handleFunctionPreflight(w http.ResponseWriter, r *http.Request) {
	if !slices.Contains(functionNames, r.PathValue("name")) {
		writeError(w, http.StatusNotFound, "Function not found")
		return
	}
	if !f.cors.Preflight(w, r) {
		writeError(w, http.StatusForbidden, "Origin not allowed")
	}
}

// withCORS lets the allowed origins read the functions' answers (the
// preflight is handleFunctionPreflight's).
func (f *functions) withCORS(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodOptions {
			f.cors.Annotate(w, r)
		}
		next.ServeHTTP(w, r)
	})
}
