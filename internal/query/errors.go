package query

import (
	"fmt"
	"net/http"
	"time"
)

// Error is a refusal in PostgREST's shape: an HTTP status and a body
// {code, details, hint, message}, code being a PGRST… code or the SQLSTATE
// PostgreSQL would have raised. The parser refuses with it, and rest/v1
// answers with it as it is.
type Error struct {
	Status  int
	Code    string
	Message string
	Details string // "" is null
	Hint    string // "" is null
	// RetryAfter, when not zero, is sent as Retry-After (an unavailable
	// store); it is not in the body.
	RetryAfter time.Duration
}

func (e *Error) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

// CodeParse is PostgREST's code for a query parameter or header that
// cannot be parsed.
const CodeParse = "PGRST100"

// The other codes the parser refuses with.
const (
	codeEmbed       = "PGRST200" // a relationship (embedding) that does not exist
	codeNoColumn    = "42703"    // undefined_column
	codeNoOperator  = "42883"    // undefined_function: an operator the column's type lacks
	codeWrongType   = "42804"    // datatype_mismatch
	codeNotNull     = "23502"    // not_null_violation
	codeBadText     = "22P02"    // invalid_text_representation
	codeBadDatetime = "22007"    // invalid_datetime_format
	codeBadEncoding = "22021"    // character_not_in_repertoire
)

func errParse(message, details string) *Error {
	return &Error{Status: http.StatusBadRequest, Code: CodeParse, Message: message, Details: details}
}

func errNoColumn(t *Table, name string) *Error {
	return &Error{Status: http.StatusBadRequest, Code: codeNoColumn,
		Message: fmt.Sprintf("column %s.%s does not exist", t.Name, name)}
}
