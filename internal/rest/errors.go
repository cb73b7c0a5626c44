package rest

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// Error is an error answer in PostgREST's shape: an HTTP status and a body
// {code, details, hint, message}, code being a PGRST… code or the SQLSTATE
// PostgreSQL would have raised.
type Error struct {
	Status  int
	Code    string
	Message string
	Details string // "" is null
	Hint    string // "" is null
}

func (e *Error) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

// The codes this service answers with.
const (
	codeParse            = "PGRST100" // a query parameter or header that cannot be parsed
	codeBody             = "PGRST102" // a body that is not a JSON object
	codeRange            = "PGRST103" // a range that cannot be satisfied
	codeSchema           = "PGRST106" // a schema other than public
	codeMediaType        = "PGRST107" // an Accept or Content-Type not offered
	codeSingular         = "PGRST116" // .single() without exactly one row
	codeMethod           = "PGRST117" // an HTTP method not offered
	codeEmbed            = "PGRST200" // a relationship (embedding) that does not exist
	codeUnknownColumn    = "PGRST204" // a body column that does not exist
	codeUnknownTable     = "PGRST205" // a table that is not exposed
	codeJWT              = "PGRST301" // a token that cannot be verified
	codeAnonymous        = "PGRST302" // no staff token
	codeJWTClaims        = "PGRST303" // a verified token whose session or user is gone
	codeUnavailable      = "PGRST001" // the store cannot be reached
	codeNoColumn         = "42703"    // undefined_column
	codeNoOperator       = "42883"    // undefined_function: an operator the column's type lacks
	codeInsufficientPriv = "42501"    // insufficient_privilege
	codeBadText          = "22P02"    // invalid_text_representation
	codeBadDatetime      = "22007"    // invalid_datetime_format
	codeBadEncoding      = "22021"    // character_not_in_repertoire
	codeNoWhere          = "21000"    // an UPDATE without a WHERE clause (pg-safeupdate)
	codeInternal         = "XX000"
)

func errParse(message, details string) *Error {
	return &Error{Status: http.StatusBadRequest, Code: codeParse, Message: message, Details: details}
}

func errNoColumn(t *Table, name string) *Error {
	return &Error{Status: http.StatusBadRequest, Code: codeNoColumn,
		Message: fmt.Sprintf("column %s.%s does not exist", t.Name, name)}
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
