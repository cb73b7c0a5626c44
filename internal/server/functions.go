package server

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"time"

	"studio/internal/contact"
	"studio/internal/form"
	"studio/internal/ratelimit"
	"studio/internal/signup"
	"studio/internal/store"
)

// The backend functions keep the wire contract of the hosted backend the
// site was designed for (Supabase Edge Functions): POST a JSON body to
// /functions/v1/<name>; a response whose JSON has "error" is a failure. The
// official client's functions.invoke works unchanged against them.

// MaxBodyBytes bounds a function's request body; a contact message at its
// limits is far smaller.
const MaxBodyBytes = 64 << 10

// storeTimeout bounds a function's wait for the store: a database that does
// not answer (a dropped connection, a network partition) becomes a 503 the
// visitor can act on instead of a spinner.
const storeTimeout = 15 * time.Second

// FunctionsConfig configures the backend functions.
type FunctionsConfig struct {
	// RateLimit is how many submissions one client may make to each function;
	// the zero Rate means no limit.
	RateLimit ratelimit.Rate
	// TrustedProxies are the addresses whose X-Forwarded-For is believed.
	TrustedProxies []netip.Prefix
	// AllowedOrigins may call the functions from other sites (CORS); empty
	// means same origin only.
	AllowedOrigins []string
	// Now is the rate limit's clock; time.Now when nil.
	Now func() time.Time
}

// functionNames are the functions, for the 405 and 404 answers.
var functionNames = []string{"submit-contact", "join-waitlist", "subscribe-newsletter"}

// functions holds what the function handlers share.
type functions struct {
	contact *contact.Service
	signup  *signup.Service
	cfg     FunctionsConfig
	logger  *slog.Logger
	limits  map[string]*ratelimit.Limiter // by function name
}

func newFunctions(d Deps) *functions {
	f := &functions{contact: d.Contact, signup: d.Signup, cfg: d.Functions, logger: d.Logger, limits: map[string]*ratelimit.Limiter{}}
	for _, name := range functionNames {
		f.limits[name] = ratelimit.New(d.Functions.RateLimit, d.Functions.Now)
	}
	return f
}

// errorBody is every failure's JSON: a message for people and, for a 400,
// the message of each bad field.
type errorBody struct {
	Error  string            `json:"error"`
	Fields map[string]string `json:"fields,omitempty"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, errorBody{Error: msg})
}

// invalid answers 400 with the fields; fields is always present, possibly {}.
func invalid(w http.ResponseWriter, fe *form.Error) {
	writeJSON(w, http.StatusBadRequest, struct {
		Error  string            `json:"error"`
		Fields map[string]string `json:"fields"`
	}{fe.Message, fe.Fields})
}

// readBody checks the content type and size of a function's request and
// returns its body, or answers 415/413/400 and returns false.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	if !isJSON(r.Header.Get("Content-Type")) {
		writeError(w, http.StatusUnsupportedMediaType, form.Rules.Errors.UnsupportedMediaType)
		return nil, false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			writeError(w, http.StatusRequestEntityTooLarge, form.Rules.Errors.TooLarge)
			return nil, false
		}
		invalid(w, &form.Error{Message: form.Rules.Errors.InvalidBody, Fields: map[string]string{}})
		return nil, false
	}
	return body, true
}

// isJSON accepts application/json with any parameters (charset=utf-8).
func isJSON(contentType string) bool {
	mt, _, _ := strings.Cut(contentType, ";")
	return strings.EqualFold(strings.TrimSpace(mt), "application/json")
}

// allow takes one submission of the client from the function's allowance, or
// answers 429 with Retry-After and returns false.
func (f *functions) allow(w http.ResponseWriter, r *http.Request, name string) bool {
	ok, retry := f.limits[name].Allow(clientIP(r, f.cfg.TrustedProxies).String())
	if ok {
		return true
	}
	w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(retry.Seconds()))))
	writeError(w, http.StatusTooManyRequests, form.Rules.Errors.RateLimited)
	return false
}

// storeFailed answers a failed write: 503 when the store is unreachable (the
// visitor may try again), else 500; both logged with the operation's error.
func (f *functions) storeFailed(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, store.ErrUnavailable) || errors.Is(err, context.DeadlineExceeded) {
		f.logger.Error("store unavailable", "path", r.URL.Path, "err", err)
		writeError(w, http.StatusServiceUnavailable, form.Rules.Errors.Unavailable)
		return
	}
	f.logger.Error("function failed", "path", r.URL.Path, "err", err)
	writeError(w, http.StatusInternalServerError, form.Rules.Errors.Internal)
}

// contactAccepted is the 200 answer of submit-contact.
type contactAccepted struct {
	ID         string    `json:"id"`
	ReceivedAt time.Time `json:"received_at"`
}

// handleContactSubmit handles POST /functions/v1/submit-contact: a contact
// message from the contact page. It answers 200 {"id", "received_at"} only
// once the message is committed; a submission that filled the honeypot gets
// the same answer and is kept as spam.
func (f *functions) handleContactSubmit(w http.ResponseWriter, r *http.Request) {
	body, ok := readBody(w, r)
	if !ok {
		return
	}
	sub, err := contact.Decode(body)
	if err != nil {
		invalid(w, err.(*form.Error))
		return
	}
	if !f.allow(w, r, "submit-contact") {
		return
	}
	if f.contact == nil {
		f.storeFailed(w, r, store.ErrUnavailable)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), storeTimeout)
	defer cancel()
	m, err := f.contact.Submit(ctx, sub)
	if err != nil {
		f.storeFailed(w, r, err)
		return
	}
	f.logger.Info("contact message stored", "id", m.ID, "spam", m.Spam)
	writeJSON(w, http.StatusOK, contactAccepted{ID: m.ID, ReceivedAt: m.ReceivedAt})
}

// signedUp is the 200 answer of the sign-ups, new or repeated alike (so the
// answer does not tell who is on a list).
type signedUp struct {
	OK bool `json:"ok"`
}

// handleWaitlistJoin handles POST /functions/v1/join-waitlist:
// {"email", "productId"} for a coming-soon product. Joining twice keeps one
// entry and answers 200 again.
func (f *functions) handleWaitlistJoin(w http.ResponseWriter, r *http.Request) {
	handleSignup(f, w, r, "join-waitlist", signup.DecodeWaitlist, func(ctx context.Context, e signup.WaitlistEntry) error {
		return f.signup.JoinWaitlist(ctx, e)
	})
}

// handleNewsletterSubscribe handles POST /functions/v1/subscribe-newsletter:
// {"email"}. Subscribing twice keeps one entry and answers 200 again.
func (f *functions) handleNewsletterSubscribe(w http.ResponseWriter, r *http.Request) {
	handleSignup(f, w, r, "subscribe-newsletter", signup.DecodeNewsletter, func(ctx context.Context, s signup.Subscriber) error {
		return f.signup.Subscribe(ctx, s)
	})
}

// handleSignup runs the steps the sign-up functions share: read and decode
// the body, apply the rate limit, store, answer 200.
func handleSignup[T any](f *functions, w http.ResponseWriter, r *http.Request, name string, decode func([]byte) (T, error), save func(context.Context, T) error) {
	body, ok := readBody(w, r)
	if !ok {
		return
	}
	v, err := decode(body)
	if err != nil {
		invalid(w, err.(*form.Error))
		return
	}
	if !f.allow(w, r, name) {
		return
	}
	if f.signup == nil {
		f.storeFailed(w, r, store.ErrUnavailable)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), storeTimeout)
	defer cancel()
	if err := save(ctx, v); err != nil {
		f.storeFailed(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, signedUp{OK: true})
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

// corsAllowHeaders are the request headers a cross-origin caller may send:
// those of the official client (authorization, apikey, x-client-info,
// x-region) and the body's content-type.
const corsAllowHeaders = "authorization, apikey, content-type, x-client-info, x-region"

// handleFunctionPreflight handles OPTIONS /functions/v1/{name}: the CORS
// preflight. Only origins in --allowed-origins pass; with none configured,
// cross-origin calls are refused (403).
func (f *functions) handleFunctionPreflight(w http.ResponseWriter, r *http.Request) {
	origin := r.Header.Get("Origin")
	if !slices.Contains(functionNames, r.PathValue("name")) {
		writeError(w, http.StatusNotFound, "Function not found")
		return
	}
	if !f.originAllowed(origin) {
		writeError(w, http.StatusForbidden, "Origin not allowed")
		return
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", origin)
	h.Add("Vary", "Origin")
	h.Set("Access-Control-Allow-Methods", "POST, OPTIONS")
	h.Set("Access-Control-Allow-Headers", corsAllowHeaders)
	h.Set("Access-Control-Max-Age", "600")
	w.WriteHeader(http.StatusNoContent)
}

func (f *functions) originAllowed(origin string) bool {
	return origin != "" && slices.Contains(f.cfg.AllowedOrigins, origin)
}

// cors lets the allowed origins read the functions' answers.
func (f *functions) cors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); r.Method != http.MethodOptions && f.originAllowed(origin) {
			w.Header().Set("Access-Control-Allow-Origin", origin)
			w.Header().Add("Vary", "Origin")
		}
		next.ServeHTTP(w, r)
	})
}
