package server

import (
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"

	"studio/internal/analytics"
	"studio/internal/api"
	"studio/internal/fault"
	"studio/internal/form"
	"studio/internal/ratelimit"
	"studio/internal/redirect"
)

// A function is one backend function, as serve runs it.
type function[T any] struct {
	name     string
	problems []fieldProblem // its fields' problem pages, in the rules' order
	// decode turns the body's fields (a JSON object's or a form post's)
	// and, when the function needs it, the request's headers into its
	// input, or says what is wrong with them.
	decode func(r *http.Request, fields form.Fields) (T, *form.Error)
	// run does the function's work with the store, within
	// api.StoreTimeout, and returns how to answer.
	run func(ctx context.Context, in T) (result, error)
	// goal is the conversion a success counts (package analytics).
	goal analytics.Goal
}

// result is a function's success: its JSON answer, the page a form post is
// sent on to, and whether the submission was kept as spam.
type result struct {
	answer   any
	location string
	spam     bool
}

// serve answers one request to fn: check its content type, origin and size
// (begin), decode it, take one submission from the client's rate limit,
// check its CAPTCHA token (with --captcha-forms), run fn, and answer success or the failure of the step that failed. Every way
// out is answered and counted.
func serve[T any](f *functions, w http.ResponseWriter, r *http.Request, fn function[T]) {
	c, fields, ok := f.begin(w, r, fn.name, fn.problems)
	if !ok {
		return
	}
	captchaToken := fields.Take(captchaField)
	in, fe := fn.decode(r, fields)
	if fe != nil {
		c.invalid(fe)
		return
	}
	if !f.allow(c, r, fn.name) || !f.checkCaptcha(c, r, captchaToken) {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), api.StoreTimeout)
	defer cancel()
	res, err := fn.run(ctx, in)
	if err != nil {
		f.storeFailed(c, r, err)
		return
	}
	c.spam = res.spam
	if !res.spam && f.analytics != nil {
		f.analytics.Converted(r, clientIP(r, f.cfg.TrustedProxies), fn.goal)
	}
	c.succeed(res.answer, res.location)
}

// fieldsOnly is the decode of a function that reads nothing but the body.
func fieldsOnly[T any](decode func(form.Fields) (T, *form.Error)) func(*http.Request, form.Fields) (T, *form.Error) {
	return func(_ *http.Request, fields form.Fields) (T, *form.Error) { return decode(fields) }
}

// errorBody is every failure's JSON: a message for people and, for a 400,
// the message of each bad field.
type errorBody struct {
	Error  string            `json:"error"`
	Fields map[string]string `json:"fields,omitempty"`
}

func writeError(w http.ResponseWriter, status int, msg string) {
	api.WriteJSON(w, status, errorBody{Error: msg})
}

// The outcomes of the rejections that are answered as they are, in JSON,
// never redirected to a problem page: a body that is neither JSON nor a
// form (415), and a form posted from another site's page (403).
const (
	outcomeUnsupportedMediaType = "unsupported-media-type"
	outcomeCrossSiteForm        = "cross-site-form"
)

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
	api.WriteJSON(c.w, http.StatusOK, v)
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
	api.WriteJSON(c.w, http.StatusBadRequest, struct {
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
// and returns how to answer it and its body's fields, read once (a body
// that is not one object of fields is the decoder's to refuse). Otherwise it
// answers (415, 403, 413, 400 or their redirects), counts the outcome and
// returns false.
func (f *functions) begin(w http.ResponseWriter, r *http.Request, name string, problems []fieldProblem) (*call, form.Fields, bool) {
	c := &call{w: w, problems: problems, function: name, outcome: f.metrics.Submission}
	switch mediaType(r.Header.Get("Content-Type")) {
	case "application/json":
	case "application/x-www-form-urlencoded":
		c.native = true
		if !f.formOriginAllowed(r) {
			c.outcome(c.function, outcomeCrossSiteForm)
			writeError(w, http.StatusForbidden, "Cross-site form submissions are not allowed")
			return nil, form.Fields{}, false
		}
	default:
		c.outcome(c.function, outcomeUnsupportedMediaType)
		writeError(w, http.StatusUnsupportedMediaType, form.Rules.Errors.UnsupportedMediaType)
		return nil, form.Fields{}, false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, api.MaxBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			c.fail(http.StatusRequestEntityTooLarge, form.Rules.Errors.TooLarge, problemTooLarge)
			return nil, form.Fields{}, false
		}
		c.invalid(&form.Error{Message: form.Rules.Errors.InvalidBody, Fields: map[string]string{}})
		return nil, form.Fields{}, false
	}
	if c.native {
		return c, form.URLEncoded(body), true
	}
	return c, form.JSON(body), true
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
	api.SetRetryAfter(c.w, retry)
	c.fail(http.StatusTooManyRequests, form.Rules.Errors.RateLimited, problemRateLimited)
	return false
}

// storeFailed answers a failed run by the kind of its error (package
// fault), logged with the operation's error. Unavailable: 503 with the
// Retry-After the error tells (the store's circuit breaker, decision 0016),
// a form post to the problem page unavailable; logged at debug level only,
// as the store logs each outage once. Invalid, a value the store refused that the decoder let
// through: 400, or the problem page invalid. Any other kind is a bug here,
// as a submission names nothing that could be missing and every write is
// idempotent: 500, or the problem page internal, telling nothing of the
// internals.
func (f *functions) storeFailed(c *call, r *http.Request, err error) {
	switch k := fault.KindOf(err); k {
	case fault.Unavailable:
		f.logger.Debug("store unavailable", "path", r.URL.Path, "err", err)
		if !c.native {
			api.SetRetryAfter(c.w, api.StoreRetryAfterOf(err))
		}
		c.fail(http.StatusServiceUnavailable, form.Rules.Errors.Unavailable, problemUnavailable)
	case fault.Invalid:
		f.logger.Warn("the store refused a decoded submission", "path", r.URL.Path, "err", err)
		c.invalid(&form.Error{Message: form.Rules.Problems[problemInvalid], Fields: map[string]string{}})
	default:
		f.logger.Error("function failed", "kind", string(k), "path", r.URL.Path, "err", err)
		c.fail(http.StatusInternalServerError, form.Rules.Errors.Internal, problemInternal)
	}
}
