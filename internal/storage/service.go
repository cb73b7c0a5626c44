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
	"studio/internal/changes"
	"studio/internal/cors"
	"studio/internal/fault"
	"studio/internal/files"
	"studio/internal/staff"
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
	// BlobCacheBytes is the memory kept for the bytes of the small blobs
	// downloads read (blobCache); zero: none.
	BlobCacheBytes int64
	Logger         *slog.Logger
	Now            func() time.Time // the clock; time.Now when nil
	// Feed, when set, is the store's change feed: while Follow runs and
	// the feed follows every server's changes, downloads read buckets and
	// objects from a catalog it keeps true (catalog), not from the store.
	Feed Feed
}

// Feed is the store's change feed (store.DB): the bus of every change
// committed, and whether it hears the other servers' too.
type Feed interface {
	changes.Feed
	Changes() *changes.Bus
}

// Service is the /storage/v1 handler. It is safe for concurrent use.
type Service struct {
	store     files.Store
	backend   files.Backend
	downloads downloadCounter
	catalog   catalog
	blobs     *blobCache // nil: none
	gate      staff.Gate
	cfg       Config
	cors      cors.Policy
	tokens    tokenKeys
	mux       *http.ServeMux
}

// New returns the service keeping metadata in st and bytes in b, checking
// staff tokens at gate.
func New(st files.Store, b files.Backend, gate staff.Gate, cfg Config) *Service {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.MaxFileSize <= 0 {
		cfg.MaxFileSize = DefaultMaxFileSize
	}
	s := &Service{store: st, backend: b, gate: gate, cfg: cfg, tokens: newTokenKeys(cfg.SigningKey), cors: cors.Policy{
		Origins: cfg.AllowedOrigins, AllowMethods: "GET, HEAD, POST, PUT, DELETE, OPTIONS",
		AllowHeaders:  "authorization, apikey, x-client-info, x-supabase-api-version, content-type, cache-control, x-upsert, x-metadata, range, if-none-match, if-modified-since",
		ExposeHeaders: "content-range, content-length, content-type, content-disposition, etag, last-modified, accept-ranges",
		MaxAge:        10 * time.Minute,
	}}
	if cfg.BlobCacheBytes > 0 {
		s.blobs = newBlobCache(cfg.BlobCacheBytes)
	}
	s.mux = http.NewServeMux()
	s.addRoutes(s.mux)
	if cfg.Feed != nil {
		s.catalog.watch(cfg.Feed.Changes())
	}
	return s
}

// Follow lets downloads read the catalog while the store's feed follows
// every server's changes, until ctx ends. Without a Feed it returns at once.
func (s *Service) Follow(ctx context.Context) {
	if s.cfg.Feed != nil {
		s.catalog.follow(ctx, s.cfg.Feed)
	}
}

// request is one request to the service, its caller known.
type request struct {
	w     http.ResponseWriter
	r     *http.Request
	staff *staff.Member // nil: anonymous (no token, or the anon key)
}

// ServeHTTP serves a request to a path under Prefix: a preflight, or the
// route of its method and path once its caller is known.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodOptions {
		if !s.cors.Preflight(w, r) {
			writeError(w, errAccessDenied("Origin not allowed"))
		}
		return
	}
	req, e := s.begin(w, r)
	if e != nil {
		writeError(w, e)
		return
	}
	s.mux.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestKey{}, req)))
}

// PublicPrefix is where the public files are: GET and HEAD of
// PublicPrefix+"{bucket}/{name}".
const PublicPrefix = Prefix + "/object/public/"

// ServePublic answers a GET or HEAD of a public file, at a path under
// PublicPrefix that a ServeMux has routed (and so cleaned): what ServeHTTP
// answers there, without routing the request again.
func (s *Service) ServePublic(w http.ResponseWriter, r *http.Request) {
	req, e := s.begin(w, r)
	if e == nil {
		e = s.downloadPublic(req, strings.TrimPrefix(r.URL.Path, PublicPrefix))
	}
	if e != nil {
		writeError(w, e)
	}
}

// MountPublic has mux answer the public files by ServePublic, each answer
// through wrap: GET and HEAD under PublicPrefix. The prefix without its
// slash, which mux would redirect to it, stays ServeHTTP's.
func (s *Service) MountPublic(mux *http.ServeMux, wrap func(http.Handler) http.Handler) {
	mux.Handle("GET "+PublicPrefix, wrap(http.HandlerFunc(s.ServePublic)))
	mux.Handle("GET "+strings.TrimSuffix(PublicPrefix, "/"), s)
}

// begin annotates a request's answer for CORS and knows its caller.
func (s *Service) begin(w http.ResponseWriter, r *http.Request) (*request, *Error) {
	s.cors.Annotate(w, r)
	member, e := s.caller(r)
	if e != nil {
		return nil, e
	}
	return &request{w: w, r: r, staff: member}, nil
}

// requestKey holds the *request of ServeHTTP in its context, for the route.
type requestKey struct{}

// handler answers a request to one route, or returns the refusal to answer.
type handler func(req *request) *Error

// addRoutes registers every route of the service, under Prefix. A
// wildcard is read percent-decoded, so a name's %2F is a slash, as it
// always was here; a bucket and a name are split by splitPath. Every other
// method or path is Fastify's 404 (errRoute), never the mux's 405. The GET
// routes that read an object answer HEAD too; the others do not.
func (s *Service) addRoutes(mux *http.ServeMux) {
	handle := func(pattern string, h handler) {
		method, path, ok := strings.Cut(pattern, " ")
		if !ok {
			method, path = "", pattern
		}
		mux.Handle(strings.TrimSpace(method+" "+Prefix+path), s.serve(h))
	}
	// tree registers a pattern ending in {path...} and the path without it,
	// which the mux would redirect to …/: the route, with an empty path.
	tree := func(pattern string, h handler) {
		handle(pattern, h)
		handle(pattern[:strings.LastIndex(pattern, "/")], h)
	}
	id := func(f func(*request, string) *Error) handler {
		return func(req *request) *Error { return f(req, req.r.PathValue("id")) }
	}
	path := func(f func(*request, string) *Error) handler {
		return func(req *request) *Error { return f(req, req.r.PathValue("path")) }
	}
	notFound := func(req *request) *Error { return errRoute(req.r) }

	handle("GET /bucket", s.listBuckets)
	handle("HEAD /bucket", notFound)
	handle("POST /bucket", s.createBucket)
	handle("GET /bucket/{id}", id(s.getBucket))
	handle("HEAD /bucket/{id}", notFound)
	handle("PUT /bucket/{id}", id(s.updateBucket))
	handle("DELETE /bucket/{id}", id(s.deleteBucket))
	handle("POST /bucket/{id}/empty", id(s.emptyBucket))

	tree("POST /object/list/{path...}", path(s.listObjects))
	handle("POST /object/move", s.moveObject)
	handle("POST /object/copy", s.copyObject)
	tree("POST /object/sign/{path...}", path(s.signObjects))
	tree("GET /object/sign/{path...}", path(s.downloadSigned))
	tree("POST /object/upload/sign/{path...}", path(s.signUploadURL))
	tree("PUT /object/upload/sign/{path...}", path(s.uploadSigned))
	tree("GET /object/public/{path...}", path(s.downloadPublic))
	tree("GET /object/authenticated/{path...}", path(s.download))
	tree("GET /object/info/{path...}", path(s.info))
	// HEAD is not info's: like any HEAD /object/{bucket}/{name}, it reads
	// an object of the bucket info (there is none: the name is reserved).
	tree("HEAD /object/info/{path...}", path(func(req *request, p string) *Error { return s.download(req, "info/"+p) }))
	handle("GET /object/{path...}", path(s.download))
	handle("POST /object/{path...}", path(s.upload))
	handle("PUT /object/{path...}", path(s.update))
	handle("DELETE /object/{path...}", path(s.deleteObjects))
	handle("/object", notFound)
	handle("/", notFound) // every other path under Prefix
}

// serve answers a route with h, for the request ServeHTTP let through.
func (s *Service) serve(h handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req := r.Context().Value(requestKey{}).(*request)
		req.r = r // with the route's wildcards
		if e := h(req); e != nil {
			writeError(w, e)
		}
	})
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

// caller is the member of staff the request's token speaks for, at the
// gate; nil for a request with no token or with the public anon key as its
// token. A token the gate refuses is answered by kind (storeError).
func (s *Service) caller(r *http.Request) (*staff.Member, *Error) {
	token := staff.StaffToken(r)
	if token == "" {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(r.Context(), api.StoreTimeout)
	defer cancel()
	member, err := s.gate.Authorize(ctx, token)
	if err != nil {
		return nil, storeError(err)
	}
	return &member, nil
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
	b, err := s.readBucket(req, id)
	return s.mayRead(req, b, err)
}

// knownBucket is bucket, from the catalog: for a read of an object, which
// changes nothing.
func (s *Service) knownBucket(req *request, id string) (files.Bucket, *Error) {
	b, err := s.catalog.bucket(id, func() (files.Bucket, error) { return s.readBucket(req, id) })
	return s.mayRead(req, b, err)
}

// readBucket reads the bucket id from the store.
func (s *Service) readBucket(req *request, id string) (files.Bucket, error) {
	ctx, cancel := storeCtx(req.r)
	defer cancel()
	return s.store.Bucket(ctx, id)
}

// mayRead is the bucket b read with err when the caller may read it.
func (s *Service) mayRead(req *request, b files.Bucket, err error) (files.Bucket, *Error) {
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
