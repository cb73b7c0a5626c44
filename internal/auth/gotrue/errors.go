// Package gotrue is the part of Supabase Auth's (GoTrue's) wire contract
// that every /auth/v1 handler shares, those of package auth and of its
// federated sub-package alike: the error answers (Error, its codes, and the
// two formats WriteError chooses between), the reading of a JSON body, the
// CAPTCHA token's place in it, and the check of PKCE parameters.
package gotrue

import (
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"studio/internal/api"
	"studio/internal/fault"
)

// Error is every error answer of the service, and why Authorize refused a
// token: an HTTP status, GoTrue's error code (Code…) and a message a person
// can read.
type Error struct {
	Status  int
	Code    string
	Message string
	// retryAfter, when set, is sent as Retry-After (a store that is
	// unavailable).
	retryAfter time.Duration
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// RetryAfter is the wait e tells the client (an unavailable store's), zero
// when it tells none.
func (e *Error) RetryAfter() time.Duration { return e.retryAfter }

// NewError is the answer status with code and the message format makes of
// args.
func NewError(status int, code, format string, args ...any) *Error {
	return &Error{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

// apiVersionHeader is the header by which the client asks for the error
// format of a date; apiVersion20240101 is the one newer format there is.
const (
	apiVersionHeader   = "X-Supabase-Api-Version"
	apiVersion20240101 = "2024-01-01"
)

// KindError is GoTrue's answer to err, a failure of kind k (package fault)
// that no handler answers for what it is, most often the store's:
// Unavailable is 503 request_timeout with the Retry-After err tells
// (api.StoreRetryAfterOf: the client may try again);
// NotFound 404 not_found, Conflict 409 conflict, Invalid 400
// validation_failed; Internal 500 unexpected_failure, a message that tells
// nothing of the internals.
func KindError(k fault.Kind, err error) *Error {
	switch k {
	case fault.Unavailable:
		e := NewError(http.StatusServiceUnavailable, CodeRequestTimeout, "The service cannot reach its store, please retry in a moment")
		e.retryAfter = api.StoreRetryAfterOf(err)
		return e
	case fault.NotFound:
		return NewError(http.StatusNotFound, CodeNotFound, "Not found")
	case fault.Conflict:
		return NewError(http.StatusConflict, CodeConflict, "The change conflicts with what is stored")
	case fault.Invalid:
		return NewError(http.StatusBadRequest, CodeValidationFailed, "A value was refused")
	}
	return NewError(http.StatusInternalServerError, CodeUnexpectedFailure, "Unexpected failure, please try again")
}

// Failure logs err, the unexpected failure of op, to log and returns its
// answer (KindError): a bug (Internal) is logged as an error, an
// unavailable store at debug level (the store logs each outage once), the
// others as warnings. logArgs are more attributes for the log (the path).
func Failure(log *slog.Logger, op string, err error, logArgs ...any) *Error {
	k := fault.KindOf(err)
	args := append([]any{"kind", string(k), "err", err}, logArgs...)
	switch k {
	case fault.Internal:
		log.Error("auth: "+op, args...)
	case fault.Unavailable:
		log.Debug("auth: "+op, args...)
	default:
		log.Warn("auth: "+op, args...)
	}
	return KindError(k, err)
}

// WriteError answers e in the format the request asks for: with
// X-Supabase-Api-Version 2024-01-01 or later, {code, message} and the header
// echoed; otherwise (no header, an older date, or one that is not a date)
// {code: status, error_code, msg}. Both carry x-sb-error-code.
func WriteError(w http.ResponseWriter, r *http.Request, e *Error) {
	h := w.Header()
	h.Set("x-sb-error-code", e.Code)
	if e.retryAfter > 0 {
		api.SetRetryAfter(w, e.retryAfter)
	}
	if newErrorFormat(r.Header.Get(apiVersionHeader)) {
		h.Set(apiVersionHeader, apiVersion20240101)
		api.WriteJSON(w, e.Status, struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		}{e.Code, e.Message})
		return
	}
	api.WriteJSON(w, e.Status, struct {
		Code      int    `json:"code"`
		ErrorCode string `json:"error_code"`
		Msg       string `json:"msg"`
	}{e.Status, e.Code, e.Message})
}

func newErrorFormat(version string) bool {
	d, err := time.Parse("2006-01-02", version)
	return err == nil && !d.Before(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
}
