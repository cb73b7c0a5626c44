package rest

import (
	"encoding/json"
	"net/http"

	"studio/internal/query"
)

// Error is an error answer in PostgREST's shape, the one the query parser
// refuses with (query.Error): an HTTP status and a body {code, details,
// hint, message}, code being a PGRST… code or the SQLSTATE PostgreSQL would
// have raised.
type Error = query.Error

// The codes this service answers with, besides the parser's.
const (
	codeBody             = "PGRST102" // a body that is not a JSON object
	codeRange            = "PGRST103" // a range that cannot be satisfied
	codeSchema           = "PGRST106" // a schema other than public
	codeMediaType        = "PGRST107" // an Accept or Content-Type not offered
	codeSingular         = "PGRST116" // .single() without exactly one row
	codeMethod           = "PGRST117" // an HTTP method not offered
	codeUnknownColumn    = "PGRST204" // a body column that does not exist
	codeUnknownTable     = "PGRST205" // a table that is not exposed
	codeJWT              = "PGRST301" // a token that cannot be verified
	codeAnonymous        = "PGRST302" // no staff token
	codeJWTClaims        = "PGRST303" // a verified token whose session or user is gone
	codeUnavailable      = "PGRST001" // the store cannot be reached
	codeInsufficientPriv = "42501"    // insufficient_privilege
	codeNoWhere          = "21000"    // an UPDATE without a WHERE clause (pg-safeupdate)
	codeInternal         = "XX000"
)

func errParse(message, details string) *Error {
	return &Error{Status: http.StatusBadRequest, Code: query.CodeParse, Message: message, Details: details}
}

// writeError answers e as PostgREST does.
func writeError(w http.ResponseWriter, e *Error) {
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
	w.WriteHeader(e.Status)
	_, _ = w.Write(body)
}
