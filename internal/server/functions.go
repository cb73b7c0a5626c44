package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"studio/internal/contact"
	"studio/internal/cors"
	"studio/internal/form"
	"studio/internal/metrics"
	"studio/internal/ratelimit"
	"studio/internal/redirect"
	"studio/internal/signup"
	"studio/internal/store"
)

// The backend functions keep the wire contract of the hosted backend the
// site was designed for (Supabase Edge Functions): POST a JSON body to
// /functions/v1/<name>; a response whose JSON has "error" is a failure. The
// official client's functions.invoke works unchanged against them. They
// also take the site's forms posted natively by a browser without
// JavaScript (application/x-www-form-urlencoded): the same fields, decoded
// into the same JSON object and run through the same decoder, rate limit and
// store, answered with 303 See Other to a page (see call).

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
}

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
}

// corsAllowHeaders are the request headers a cross-origin caller may send:
// those of the official client (authorization, apikey, x-client-info,
// x-region), the body's content-type and the Idempotency-Key.
const corsAllowHeaders = "authorization, apikey, content-type, x-client-info, x-region, idempotency-key"

func newFunctions(d Deps) *functions {
	f := &functions{contact: d.Contact, signup: d.Signup, cfg: d.Functions, logger: d.Logger, limits: map[string]ratelimit.Allower{},
		metrics: d.Metrics, cors: cors.Policy{
			Origins: d.Functions.AllowedOrigins, AllowMethods: "POST, OPTIONS", AllowHeaders: corsAllowHeaders, MaxAge: 10 * time.Minute,
		}}
	for _, name := range functionNames {
		f.limits[name] = ratelimit.For("functions/"+name, d.Functions.RateLimit, d.Functions.Buckets, d.Functions.Now, d.Functions.BucketsUnreachable)
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

// The reasons a native form post fails for besides its fields (see
// fieldProblem): each is a key of rules.json "problems", whose page the web
// build prerenders at /forms/problem/{reason}.
const (
	problemInvalid     = form.ProblemInvalid // undecodable, unknown or repeated field, not UTF-8
	problemTooLarge    = "too-large"
	problemRateLimited = "rate-limited"
	problemUnavailable = "unavailable" // the 503s
	problemInternal    = "internal"    // the 500s
)

// The outcomes of the rejections that are answered as they are, never
// redirected to a problem page: a body that is neither JSON nor a form
// (415), and a form posted from another site's page (403).
const (
	outcomeUnsupportedMediaType = "unsupported-media-type"
	outcomeCrossSiteForm        = "cross-site-form"
)

// fieldProblem is the reason a native form post fails for when field is bad.
type fieldProblem struct{ field, reason string }

// The fields of each function's body, in the order their problems are
// reported (the rules' order): the first bad one is the post's reason.
var (
	contactProblems    = contactFieldProblems()
	waitlistProblems   = []fieldProblem{{form.Rules.Signup.Email.Field, "signup-email"}, {form.Rules.Signup.ProductID.Field, "product"}}
	newsletterProblems = waitlistProblems[:1]
)

// contactFieldProblems names each contact field's problem after the field.
func contactFieldProblems() []fieldProblem {
	var out []fieldProblem
	for _, r := range form.Rules.Contact {
		out = append(out, fieldProblem{r.Field, r.Field})
	}
	return out
}

// problemReasons are every reason a native form post can be redirected for.
// Each must be a key of rules.json "problems" (the web build makes a page
// only for those): the server does not start otherwise.
var problemReasons = mustProblems()

func mustProblems() []string {
	reasons := []string{problemInvalid, problemTooLarge, problemRateLimited, problemUnavailable, problemInternal}
	for _, fps := range [][]fieldProblem{contactProblems, waitlistProblems, newsletterProblems} {
		for _, fp := range fps {
			if !slices.Contains(reasons, fp.reason) {
				reasons = append(reasons, fp.reason)
			}
		}
	}
	for _, r := range reasons {
		if _, ok := form.Rules.Problems[r]; !ok {
			panic(fmt.Sprintf("server: reason %q is not a key of problems in internal/form/rules.json", r))
		}
	}
	return reasons
}

// problemPath is the page a native form post that failed for reason is
// redirected to. It holds only the reason, never a submitted value.
func problemPath(reason string) string {
	if !slices.Contains(problemReasons, reason) { // a programming error; mustProblems vouches for the rest
		reason = problemInternal
	}
	return "/forms/problem/" + reason
}

// A call is one request to a function and how it is answered: a script
// (fetch, functions.invoke) posts JSON and reads JSON; a native HTML form
// post (application/x-www-form-urlencoded, the site's forms with JavaScript
// off) is answered as a browser expects, with 303 See Other to a page of the
// site: the function's success page or the problem page of the reason.
type call struct {
	w        http.ResponseWriter
	native   bool
	problems []fieldProblem
	// function is the function's name; outcome records how the call ended
	// (accepted, spam, or the reason it failed).
	function string
	outcome  func(function, outcome string)
	spam     bool // accepted, and kept as spam
}

// redirect answers a native form post with 303 to path, a path of this
// site (500 if it is none: a programming error).
func (c *call) redirect(path string) {
	location, ok := redirect.Location(path, "")
	if !ok {
		writeError(c.w, http.StatusInternalServerError, form.Rules.Errors.Internal)
		return
	}
	h := c.w.Header()
	h.Set("Location", location)
	h.Set("Cache-Control", "no-store")
	c.w.WriteHeader(http.StatusSeeOther)
}

// succeed answers success: v as JSON, or a redirect to location.
func (c *call) succeed(v any, location string) {
	if c.spam {
		c.outcome(c.function, "spam")
	} else {
		c.outcome(c.function, "accepted")
	}
	if c.native {
		c.redirect(location)
		return
	}
	writeJSON(c.w, http.StatusOK, v)
}

// fail answers a failure: status with msg as JSON, or a redirect to the
// problem page of reason.
func (c *call) fail(status int, msg, reason string) {
	c.outcome(c.function, reason)
	if c.native {
		c.redirect(problemPath(reason))
		return
	}
	writeError(c.w, status, msg)
}

// invalid answers bad input: 400 with the fields (always present, possibly
// {}), or a redirect to the problem page of the first bad field.
func (c *call) invalid(fe *form.Error) {
	c.outcome(c.function, problemInvalid)
	if c.native {
		c.redirect(problemPath(c.reasonOf(fe)))
		return
	}
	writeJSON(c.w, http.StatusBadRequest, struct {
		Error  string            `json:"error"`
		Fields map[string]string `json:"fields"`
	}{fe.Message, fe.Fields})
}

// reasonOf is the reason a native form post failed for: invalid when the
// form itself is wrong (no fields named: undecodable, not UTF-8; or a name
// that is not one of the function's fields: an unknown one), else the
// first bad field's.
func (c *call) reasonOf(fe *form.Error) string {
	for name := range fe.Fields {
		if !slices.ContainsFunc(c.problems, func(fp fieldProblem) bool { return fp.field == name }) {
			return problemInvalid
		}
	}
	for _, fp := range c.problems {
		if _, bad := fe.Fields[fp.field]; bad {
			return fp.reason
		}
	}
	return problemInvalid
}

// begin checks the content type, origin and size of a function's request
// and returns how to answer it and its body as the JSON object the
// function's decoder reads (a form post is turned into one). Otherwise it
// answers (415, 403, 413, 400 or their redirects), counts the outcome and
// returns false.
func (f *functions) begin(w http.ResponseWriter, r *http.Request, name string, problems []fieldProblem) (*call, []byte, bool) {
	c := &call{w: w, problems: problems, function: name, outcome: f.metrics.Submission}
	switch mediaType(r.Header.Get("Content-Type")) {
	case "application/json":
	case "application/x-www-form-urlencoded":
		c.native = true
		if !f.formOriginAllowed(r) {
			c.outcome(c.function, outcomeCrossSiteForm)
			w.Header().Set("Cache-Control", "no-store")
			http.Error(w, "Cross-site form submissions are not allowed", http.StatusForbidden)
			return nil, nil, false
		}
	default:
		c.outcome(c.function, outcomeUnsupportedMediaType)
		writeError(w, http.StatusUnsupportedMediaType, form.Rules.Errors.UnsupportedMediaType)
		return nil, nil, false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			c.fail(http.StatusRequestEntityTooLarge, form.Rules.Errors.TooLarge, problemTooLarge)
			return nil, nil, false
		}
		c.invalid(&form.Error{Message: form.Rules.Errors.InvalidBody, Fields: map[string]string{}})
		return nil, nil, false
	}
	if c.native {
		var fe *form.Error
		if body, fe = form.FromURLEncoded(body); fe != nil {
			c.invalid(fe)
			return nil, nil, false
		}
	}
	return c, body, true
}

// mediaType is the media type of a Content-Type, without its parameters
// (charset=utf-8), in lower case.
func mediaType(contentType string) string {
	mt, _, _ := strings.Cut(contentType, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

// formOriginAllowed guards the native form posts: a browser lets any site
// post a form to any other, so a post whose Origin is present and is neither
// this request's own origin nor one of --allowed-origins is refused (JSON
// calls keep CORS: another site's script cannot send JSON without a
// preflight). A post without Origin passes: browsers send Origin with every
// form POST, so it comes from an older browser or a program, not from a
// page of another site.
func (f *functions) formOriginAllowed(r *http.Request) bool {
	origins := r.Header.Values("Origin")
	switch len(origins) {
	case 0:
		return true
	case 1:
		return strings.EqualFold(origins[0], f.ownOrigin(r)) || f.cors.Allows(origins[0])
	}
	return false
}

// ownOrigin is the origin the request was made to, scheme://host, https
// when it came over HTTPS (see overHTTPS).
func (f *functions) ownOrigin(r *http.Request) string {
	scheme := "http"
	if overHTTPS(r, f.cfg.TrustedProxies) {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// allow takes one submission of the client from the function's allowance, or
// answers 429 (or its redirect) with Retry-After and returns false.
func (f *functions) allow(c *call, r *http.Request, name string) bool {
	ok, retry := f.limits[name].Allow(ratelimit.ClientKey(clientIP(r, f.cfg.TrustedProxies).String()))
	if ok {
		return true
	}
	f.metrics.RateLimited("functions/" + name)
	c.w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(retry.Seconds()))))
	c.fail(http.StatusTooManyRequests, form.Rules.Errors.RateLimited, problemRateLimited)
	return false
}

// storeFailed answers a failed write: 503 when the store is unreachable (the
// visitor may try again), else 500; both logged with the operation's error.
func (f *functions) storeFailed(c *call, r *http.Request, err error) {
	if errors.Is(err, store.ErrUnavailable) || errors.Is(err, context.DeadlineExceeded) {
		f.logger.Error("store unavailable", "path", r.URL.Path, "err", err)
		c.fail(http.StatusServiceUnavailable, form.Rules.Errors.Unavailable, problemUnavailable)
		return
	}
	f.logger.Error("function failed", "path", r.URL.Path, "err", err)
	c.fail(http.StatusInternalServerError, form.Rules.Errors.Internal, problemInternal)
}

// contactAccepted is the 200 answer of submit-contact.
type contactAccepted struct {
	ID         string    `json:"id"`
	ReceivedAt time.Time `json:"received_at"`
}

// handleContactSubmit handles POST /functions/v1/submit-contact: a contact
// message from the contact page. It answers 200 {"id", "received_at"} (a
// form post: 303 to /contact/sent) only once the message is committed; a
// submission that filled the honeypot gets the same answer and is kept as
// spam.
func (f *functions) handleContactSubmit(w http.ResponseWriter, r *http.Request) {
	c, body, ok := f.begin(w, r, "submit-contact", contactProblems)
	if !ok {
		return
	}
	sub, err := contact.Decode(body)
	if err != nil {
		c.invalid(err.(*form.Error))
		return
	}
	if sub.IdempotencyKey, ok = idempotencyKey(r); !ok {
		c.invalid(&form.Error{Message: form.Rules.Errors.InvalidIdempotencyKey, Fields: map[string]string{}})
		return
	}
	if !f.allow(c, r, "submit-contact") {
		return
	}
	if f.contact == nil {
		f.storeFailed(c, r, store.ErrUnavailable)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), storeTimeout)
	defer cancel()
	m, err := f.contact.Submit(ctx, sub)
	if err != nil {
		f.storeFailed(c, r, err)
		return
	}
	f.logger.Info("contact message stored", "id", m.ID, "spam", m.Spam)
	c.spam = m.Spam
	c.succeed(contactAccepted{ID: m.ID, ReceivedAt: m.ReceivedAt}, "/contact/sent")
}

// idempotencyKey is the request's Idempotency-Key header (a bare token, or
// the quoted string of draft-ietf-httpapi-idempotency-key-header), "" when
// there is none; ok is false when it is malformed. A page sends one key per
// message, and a load balancer may set one per request (docs/deploy.md), so
// that a request repeated after a lost answer stores and mails nothing twice.
func idempotencyKey(r *http.Request) (key string, ok bool) {
	values := r.Header.Values("Idempotency-Key")
	switch len(values) {
	case 0:
		return "", true
	case 1:
	default:
		return "", false
	}
	key = strings.TrimSpace(values[0])
	if len(key) >= 2 && key[0] == '"' && key[len(key)-1] == '"' {
		key = key[1 : len(key)-1]
	}
	if key == "" || len(key) > 255 {
		return "", false
	}
	for i := range len(key) {
		if key[i] < 0x21 || key[i] > 0x7e {
			return "", false
		}
	}
	return key, true
}

// signedUp is the 200 answer of the sign-ups, new or repeated alike (so the
// answer does not tell who is on a list).
type signedUp struct {
	OK bool `json:"ok"`
}

// handleWaitlistJoin handles POST /functions/v1/join-waitlist:
// {"email", "productId"} for a coming-soon product. Joining twice keeps one
// entry and answers 200 again. A form post is sent on to
// /products/{productId}/joined: the decoder admits only the known products'
// ids, so the path holds no visitor's text.
func (f *functions) handleWaitlistJoin(w http.ResponseWriter, r *http.Request) {
	handleSignup(f, w, r, "join-waitlist", waitlistProblems, signup.DecodeWaitlist, func(ctx context.Context, e signup.WaitlistEntry) error {
		return f.signup.JoinWaitlist(ctx, e)
	}, func(e signup.WaitlistEntry) string {
		return "/products/" + url.PathEscape(e.ProductID) + "/joined"
	})
}

// handleNewsletterSubscribe handles POST /functions/v1/subscribe-newsletter:
// {"email"}. Subscribing twice keeps one entry and answers 200 again. A form
// post is sent on to /resources/subscribed.
func (f *functions) handleNewsletterSubscribe(w http.ResponseWriter, r *http.Request) {
	handleSignup(f, w, r, "subscribe-newsletter", newsletterProblems, signup.DecodeNewsletter, func(ctx context.Context, s signup.Subscriber) error {
		return f.signup.Subscribe(ctx, s)
	}, func(signup.Subscriber) string { return "/resources/subscribed" })
}

// handleSignup runs the steps the sign-up functions share: read and decode
// the body, apply the rate limit, store, answer 200 (or redirect to the
// success page at location).
func handleSignup[T any](f *functions, w http.ResponseWriter, r *http.Request, name string, problems []fieldProblem,
	decode func([]byte) (T, error), save func(context.Context, T) error, location func(T) string) {
	c, body, ok := f.begin(w, r, name, problems)
	if !ok {
		return
	}
	v, err := decode(body)
	if err != nil {
		c.invalid(err.(*form.Error))
		return
	}
	if !f.allow(c, r, name) {
		return
	}
	if f.signup == nil {
		f.storeFailed(c, r, store.ErrUnavailable)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), storeTimeout)
	defer cancel()
	if err := save(ctx, v); err != nil {
		f.storeFailed(c, r, err)
		return
	}
	c.succeed(signedUp{OK: true}, location(v))
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
