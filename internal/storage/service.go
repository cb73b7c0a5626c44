// Package storage is the /storage/v1 service: the subset of Supabase
// Storage's HTTP API that @supabase/supabase-js's storage client sends.
// Object bytes live in a files.Backend (a directory under --data, or an
// S3-compatible bucket that several instances share); their metadata
// (buckets, names, sizes, types, times) lives in the store (files.Store).
package storage

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"studio/internal/api"
	"studio/internal/auth"
	"studio/internal/cors"
	"studio/internal/fault"
	"studio/internal/files"
)

// Prefix is where the service is mounted.
const Prefix = "/storage/v1"

// DefaultMaxFileSize bounds every upload, whatever its bucket allows.
const DefaultMaxFileSize = 5 << 30

// maxJSONBytes bounds a JSON request body (a removal of 1,000 long names).
const maxJSONBytes = 2 << 20

// Config configures the service.
type Config struct {
	// SigningKey signs the tokens of signed URLs; every server of one store
	// must have the same (derived from --secret-key).
	SigningKey     []byte
	AllowedOrigins []string // may call the service from other sites (CORS)
	// MaxFileSize bounds every upload; zero: DefaultMaxFileSize.
	MaxFileSize int64
	Logger      *slog.Logger
	Now         func() time.Time // the clock; time.Now when nil
}

// Service is the /storage/v1 handler. It is safe for concurrent use.
type Service struct {
	store     files.Store
	backend   files.Backend
	downloads downloadCounter
	auth      auth.Authorizer
	cfg       Config
	cors      cors.Policy
	tokens    tokenKeys
}

// New returns the service keeping metadata in st and bytes in b, checking
// staff tokens with a.
func New(st files.Store, b files.Backend, a auth.Authorizer, cfg Config) *Service {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.MaxFileSize <= 0 {
		cfg.MaxFileSize = DefaultMaxFileSize
	}
	return &Service{store: st, backend: b, auth: a, cfg: cfg, tokens: newTokenKeys(cfg.SigningKey), cors: cors.Policy{
		Origins: cfg.AllowedOrigins, AllowMethods: "GET, HEAD, POST, PUT, DELETE, OPTIONS",
		AllowHeaders:  "authorization, apikey, x-client-info, x-supabase-api-version, content-type, cache-control, x-upsert, x-metadata, range, if-none-match, if-modified-since",
		ExposeHeaders: "content-range, content-length, content-type, content-disposition, etag, last-modified, accept-ranges",
		MaxAge:        10 * time.Minute,
	}}
}

// request is one request to the service, its caller known.
type request struct {
	w     http.ResponseWriter
	r     *http.Request
	staff *auth.Staff // nil: anonymous (no token, or the anon key)
}

// ServeHTTP serves a request to a path under Prefix.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodOptions {
		if !s.cors.Preflight(w, r) {
			writeError(w, errAccessDenied("Origin not allowed"))
		}
		return
	}
	s.cors.Annotate(w, r)
	staff, e := s.caller(r)
	if e != nil {
		writeError(w, e)
		return
	}
	req := &request{w: w, r: r, staff: staff}
	if e := s.route(req, strings.TrimPrefix(r.URL.Path, Prefix)); e != nil {
		writeError(w, e)
	}
}

// route calls the handler of path (after Prefix), or answers Fastify's 404.
func (s *Service) route(req *request, path string) *Error {
	m := req.r.Method
	read := m == http.MethodGet || m == http.MethodHead
	if rest, ok := strings.CutPrefix(path, "/bucket"); ok {
		id, action, _ := strings.Cut(strings.TrimPrefix(rest, "/"), "/")
		switch {
		case rest == "" && m == http.MethodGet:
			return s.listBuckets(req)
		case rest == "" && m == http.MethodPost:
			return s.createBucket(req)
		case id != "" && action == "" && m == http.MethodGet:
			return s.getBucket(req, id)
		case id != "" && action == "" && m == http.MethodPut:
			return s.updateBucket(req, id)
		case id != "" && action == "" && m == http.MethodDelete:
			return s.deleteBucket(req, id)
		case id != "" && action == "empty" && m == http.MethodPost:
			return s.emptyBucket(req, id)
		}
		return errRoute(req.r)
	}
	rest, ok := strings.CutPrefix(path, "/object/")
	if !ok {
		return errRoute(req.r)
	}
	first, tail, _ := strings.Cut(rest, "/")
	switch {
	case first == "list" && m == http.MethodPost:
		return s.listObjects(req, tail)
	case first == "move" && tail == "" && m == http.MethodPost:
		return s.moveObject(req)
	case first == "copy" && tail == "" && m == http.MethodPost:
		return s.copyObject(req)
	case first == "sign" && m == http.MethodPost && !strings.Contains(tail, "/"):
		return s.signURLs(req, tail)
	case first == "sign" && m == http.MethodPost:
		return s.signURL(req, tail)
	case first == "sign" && read:
		return s.downloadSigned(req, tail)
	case first == "upload" && strings.HasPrefix(tail, "sign/") && m == http.MethodPost:
		return s.signUploadURL(req, strings.TrimPrefix(tail, "sign/"))
	case first == "upload" && strings.HasPrefix(tail, "sign/") && m == http.MethodPut:
		return s.uploadSigned(req, strings.TrimPrefix(tail, "sign/"))
	case first == "public" && read:
		return s.download(req, tail, true)
	case first == "authenticated" && read:
		return s.download(req, tail, false)
	case first == "info" && m == http.MethodGet:
		tail, public := strings.CutPrefix(tail, "public/")
		if !public {
			tail = strings.TrimPrefix(tail, "authenticated/")
		}
		return s.info(req, tail, public)
	case read:
		return s.download(req, rest, false)
	case m == http.MethodPost || m == http.MethodPut:
		return s.upload(req, rest, m == http.MethodPut)
	case m == http.MethodDelete && tail == "":
		return s.removeObjects(req, first)
	case m == http.MethodDelete:
		return s.deleteObject(req, rest)
	}
	return errRoute(req.r)
}

// errRoute is Fastify's answer to a route it does not have.
func errRoute(r *http.Request) *Error {
	return &Error{Status: http.StatusNotFound, StatusCode: "404", Code: "NotFound", Err: "Not Found",
		Message: "Route " + r.Method + ":" + r.URL.Path + " not found"}
}

// splitPath splits "bucket/name" and checks the name (validName).
func splitPath(path string) (bucket, name string, e *Error) {
	bucket, name, _ = strings.Cut(path, "/")
	if bucket == "" {
		return "", "", errNoSuchBucket()
	}
	if !validName(name) {
		return "", "", errInvalidKey(name)
	}
	return bucket, name, nil
}

// caller is the staff member the request's token speaks for; nil for a
// request with no token or with the public anon key as its token
// (supabase-js sends the key as the bearer when no one is signed in). A
// token that does not verify is refused.
func (s *Service) caller(r *http.Request) (*auth.Staff, *Error) {
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	token = strings.TrimSpace(token)
	if !ok || token == "" || token == r.Header.Get("apikey") {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(r.Context(), api.StoreTimeout)
	defer cancel()
	staff, ae := s.auth.Authorize(ctx, token)
	switch {
	case ae == nil:
		return &staff, nil
	case ae.Status == http.StatusServiceUnavailable:
		return nil, errUnavailable(ae.RetryAfter())
	case ae.Status >= 500:
		return nil, errInternal()
	}
	return nil, errAccessDenied(ae.Message)
}

// mayRead reports whether the caller may read the objects of b: staff, or
// anyone when b is public.
func (req *request) mayRead(b files.Bucket) bool { return req.staff != nil || b.Public }

// owner is the caller's user id, "" when anonymous.
func (req *request) owner() string {
	if req.staff == nil {
		return ""
	}
	return req.staff.UserID
}

// storeCtx bounds a request's wait for the store (api.StoreTimeout).
func storeCtx(r *http.Request) (context.Context, context.CancelFunc) {
	return context.WithTimeout(r.Context(), api.StoreTimeout)
}

// failed answers err, a failure of the store or the backend, logged by its
// kind: a bug as an error, an unavailable store at debug level (the store
// logs each outage once), the store's refusals not at all.
func (s *Service) failed(req *request, err error) *Error {
	e := storeError(err)
	switch {
	case e.Status == http.StatusInternalServerError:
		s.cfg.Logger.Error("storage", "method", req.r.Method, "path", req.r.URL.Path, "err", err)
	case fault.KindOf(err) == fault.Unavailable:
		s.cfg.Logger.Debug("storage: store unavailable", "path", req.r.URL.Path, "err", err)
	}
	return e
}

// bucket returns the bucket id when the caller may read it; a bucket they
// may not read is answered as one that does not exist.
func (s *Service) bucket(req *request, id string) (files.Bucket, *Error) {
	ctx, cancel := storeCtx(req.r)
	defer cancel()
	b, err := s.store.Bucket(ctx, id)
	if err != nil {
		return b, s.failed(req, err)
	}
	if !req.mayRead(b) {
		return b, errNoSuchBucket()
	}
	return b, nil
}

// decodeJSON reads the request's JSON body into v.
func decodeJSON(r *http.Request, v any) *Error {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxJSONBytes+1))
	if err != nil {
		return errInvalidRequest("Could not read the body")
	}
	if len(body) > maxJSONBytes {
		return refusal("413", "EntityTooLarge", "Payload too large", "The request body is too large")
	}
	if len(strings.TrimSpace(string(body))) == 0 {
		body = []byte("{}")
	}
	if err := json.Unmarshal(body, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return errInvalidRequest("body/" + te.Field + " has the wrong type")
		}
		return errInvalidRequest("Body is not valid JSON")
	}
	return nil
}

// writeJSON answers 200 with v, never cached.
func writeJSON(w http.ResponseWriter, v any) {
	api.WriteJSON(w, http.StatusOK, v)
}

// message is Supabase's answer to a change that returns nothing else.
type message struct {
	Message string `json:"message"`
}
