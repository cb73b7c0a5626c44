// Package rest is the /rest/v1 service: the subset of PostgREST's contract
// that @supabase/supabase-js's from(…) sends for the staff console, over
// the exposed tables of package query. Requests are parsed into a
// query.Query whose identifiers all come from those tables and whose values
// are typed; the Store (package store, both engines) turns it into SQL with
// parameters.
// Every request needs a staff access token (the staff.Gate checks it).
package rest

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"studio/internal/analytics"
	"studio/internal/cors"
	"studio/internal/fault"
	"studio/internal/query"
	"studio/internal/staff"
)

// Prefix is where the service is mounted.
const Prefix = "/rest/v1"

// Store runs queries on the exposed tables.
type Store interface {
	// Select returns the rows of q (and their total, with q.Count).
	Select(ctx context.Context, q *query.Query) (query.Result, error)
	// Update sets the columns of set on every row of q.Where, in one
	// transaction, and returns those rows after the update (q.Select
	// columns, in key order). It publishes a change for each.
	Update(ctx context.Context, q *query.Query, set []query.Assignment) ([]query.Row, error)
	// AnalyticsSummary is what the site did (rpc/analytics_summary).
	AnalyticsSummary(ctx context.Context, q analytics.Query) (analytics.Summary, error)
}

// Config configures the service.
type Config struct {
	AllowedOrigins []string // may call the service from other sites (CORS)
	Analytics      bool     // the server counts (--analytics on): rpc/analytics_summary says so
	Logger         *slog.Logger
}

// Service is the /rest/v1 handler. It is safe for concurrent use.
type Service struct {
	store Store
	gate  staff.Gate
	cfg   Config
	cors  cors.Policy
}

// New returns the service reading st and checking tokens with a.
func New(st Store, gate staff.Gate, cfg Config) *Service {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Service{store: st, gate: gate, cfg: cfg, cors: cors.Policy{
		Origins: cfg.AllowedOrigins, AllowMethods: "GET, HEAD, POST, PATCH, OPTIONS",
		AllowHeaders: corsAllowHeaders, ExposeHeaders: corsExposeHeaders, MaxAge: 10 * time.Minute,
	}}
}

// The CORS headers: those the official client sends, and those it reads.
const (
	corsAllowHeaders  = "authorization, apikey, x-client-info, x-supabase-api-version, content-type, accept, accept-profile, content-profile, prefer, range, range-unit, x-retry-count"
	corsExposeHeaders = "content-range, range-unit, preference-applied"
)

// ServeHTTP serves a request to a path under Prefix: /rest/v1/{table}.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodOptions {
		s.handlePreflight(w, r)
		return
	}
	s.cors.Annotate(w, r)
	member, err := s.authorize(r)
	if err != nil {
		writeError(w, err)
		return
	}
	name := strings.TrimPrefix(r.URL.Path, Prefix+"/")
	if fn, ok := isRPC(name); ok {
		s.handleRPC(w, r, fn)
		return
	}
	t, ok := query.TableNamed(name)
	switch {
	case !ok:
		writeError(w, errUnknownTable(name))
		return
	}
	if p := profile(r); p != "" && p != "public" {
		writeError(w, &Error{Code: codeSchema,
			Message: "Invalid schema: " + p, Hint: "Only the following schemas are exposed: public"})
		return
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		s.handleRead(w, r, t)
	case http.MethodPatch:
		s.handlePatch(w, r, t, member)
	default:
		w.Header().Set("Allow", "GET, HEAD, PATCH, OPTIONS")
		writeError(w, &Error{Code: codeMethod,
			Message: "Unsupported HTTP method: " + r.Method, Hint: "The console reads with GET and HEAD and updates with PATCH"})
	}
}

func errUnknownTable(name string) *Error {
	names := make([]string, len(query.Tables))
	for i, t := range query.Tables {
		names[i] = t.Name
	}
	return &Error{Code: codeUnknownTable,
		Message: "Could not find the table 'public." + name + "' in the schema cache",
		Hint:    "The exposed tables are " + strings.Join(names, ", ")}
}

// profile is the schema the request names (supabase-js sends public).
func profile(r *http.Request) string {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return r.Header.Get("Accept-Profile")
	}
	return r.Header.Get("Content-Profile")
}

// handlePreflight answers OPTIONS: the CORS preflight. Only
// --allowed-origins pass.
func (s *Service) handlePreflight(w http.ResponseWriter, r *http.Request) {
	if !s.cors.Preflight(w, r) {
		writeError(w, &Error{Code: codeInsufficientPriv, Message: "Origin not allowed"})
	}
}

// storeFailed answers a store error by its kind (faultError), logged: a bug
// (Internal) as an error, an unavailable store at debug level (the store
// logs each outage once), the others as warnings.
func (s *Service) storeFailed(w http.ResponseWriter, r *http.Request, err error) {
	switch k := fault.KindOf(err); k {
	case fault.Internal:
		s.cfg.Logger.Error("rest: store", "path", r.URL.Path, "err", err)
	case fault.Unavailable:
		s.cfg.Logger.Debug("rest: store", "kind", string(k), "path", r.URL.Path, "err", err)
	default:
		s.cfg.Logger.Warn("rest: store", "kind", string(k), "path", r.URL.Path, "err", err)
	}
	writeError(w, faultError(err))
}
