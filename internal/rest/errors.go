package rest

import (
	"encoding/json"
	"errors"
	"net/http"

	"studio/internal/api"
	"studio/internal/fault"
	"studio/internal/query"
	"studio/internal/staff"
)

// Error is an error answer in PostgREST's shape, the one the query parser
// refuses with (query.Error): a body {code, details, hint, message}, code
// being a PGRST… code or the SQLSTATE PostgreSQL would have raised, sent
// with the HTTP status of its code (status).
type Error = query.Error

// The codes this service answers with, besides the parser's.
const (
	codeBody             = "PGRST102" // a body that is not a JSON object
	codeRange            = "PGRST103" // a range that cannot be satisfied
	codeSchema           = "PGRST106" // a schema other than public
	codeMediaType        = "PGRST107" // an Accept or Content-Type not offered
	codeSingular         = "PGRST116" // .single() without exactly one row
	codeMethod           = "PGRST117" // an HTTP method not offered
	codeNoFunction       = "PGRST202" // a function (rpc/…) that is not exposed
	codeUnknownColumn    = "PGRST204" // a body column that does not exist
	codeUnknownTable     = "PGRST205" // a table that is not exposed
	codeJWT              = "PGRST301" // a token that cannot be verified
	codeAnonymous        = "PGRST302" // no staff token
	codeJWTClaims        = "PGRST303" // a verified token whose session or user is gone
	codeUnavailable      = "PGRST001" // the store cannot be reached
	codeInsufficientPriv = "42501"    // insufficient_privilege
	codeNoWhere          = "21000"    // an UPDATE without a WHERE clause (pg-safeupdate)
	codeConflict         = "23505"    // unique_violation (foreign keys too: fault.Conflict)
	codeCheck            = "23514"    // check_violation (not null too: fault.Invalid)
	codeInternal         = "XX000"
)

// status is the HTTP status PostgREST answers code with: 400, the refusal
// of a request, but for these. Two codes have a second status, which their
// answers choose (writeErrorStatus): PGRST107 is 415 for a Content-Type
// not offered, PGRST102 413 for a body too large.
func status(code string) int {
	switch code {
	case codeAnonymous, codeJWT, codeJWTClaims:
		return http.StatusUnauthorized
	case codeInsufficientPriv:
		return http.StatusForbidden
	case codeUnknownTable, codeNoFunction, query.CodeNoOperator:
		return http.StatusNotFound
	case codeMethod:
		return http.StatusMethodNotAllowed
	case codeSchema, codeMediaType, codeSingular:
		return http.StatusNotAcceptable
	case codeConflict:
		return http.StatusConflict
	case codeRange:
		return http.StatusRequestedRangeNotSatisfiable
	case codeInternal:
		return http.StatusInternalServerError
	case codeUnavailable:
		return http.StatusServiceUnavailable
	}
	return http.StatusBadRequest
}

// faultError is PostgREST's answer to a failure of err's kind (package
// fault), with the codes PostgREST gives the SQLSTATEs behind each kind:
// Unavailable 503 PGRST001 (with Retry-After: the client may try again),
// Conflict 409 23505 (a unique or foreign key violation), Invalid 400 23514
// (a value a constraint refuses). The gate's refusals: Unauthenticated 401,
// PGRST303 for a session that ended, else PGRST301 (a token that does not
// verify), both meaning "sign in again"; Forbidden 403 42501 (the session
// must reach aal2 first). The store of /rest/v1 finds no row by reading
// none, never by NotFound: that, like Internal, is a bug, 500 XX000 with a
// message that tells nothing of the internals.
func faultError(err error) *Error {
	switch fault.KindOf(err) {
	case fault.Unavailable:
		return &Error{Code: codeUnavailable,
			Message: "Could not reach the database", Hint: "Try again in a moment", RetryAfter: api.StoreRetryAfterOf(err)}
	case fault.Conflict:
		return &Error{Code: codeConflict, Message: "The change conflicts with a stored row"}
	case fault.Invalid:
		return &Error{Code: codeCheck, Message: "A value breaks a rule of the table"}
	case fault.Unauthenticated:
		code := codeJWT
		if errors.Is(err, staff.ErrSessionEnded) {
			code = codeJWTClaims
		}
		return &Error{Code: code, Message: err.Error(), Hint: "Sign in again"}
	case fault.Forbidden:
		return &Error{Code: codeInsufficientPriv, Message: err.Error(),
			Hint: "Verify a TOTP factor: this session must be at aal2"}
	}
	return &Error{Code: codeInternal, Message: "Unexpected failure, please try again"}
}

func errParse(message, details string) *Error {
	return &Error{Code: query.CodeParse, Message: message, Details: details}
}

// writeError answers e as PostgREST does, with the status of its code; a
// store that cannot be reached (PGRST001) with Retry-After too:
// e.RetryAfter, else api.StoreRetryAfter.
func writeError(w http.ResponseWriter, e *Error) { writeErrorStatus(w, status(e.Code), e) }

// writeErrorStatus is writeError with another status than its code's.
func writeErrorStatus(w http.ResponseWriter, status int, e *Error) {
	nullable := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	body, _ := json.Marshal(struct {
		Code    string  `json:"code"`
		Details *string `json:"details"`
		Hint    *string `json:"hint"`
		Message string  `json:"message"`
	}{e.Code, nullable(e.Details), nullable(e.Hint), e.Message})
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Del("Content-Range")
	if e.Code == codeUnavailable {
		wait := e.RetryAfter
		if wait <= 0 {
			wait = api.StoreRetryAfter
		}
		api.SetRetryAfter(w, wait)
	}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
