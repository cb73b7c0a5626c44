package query

import (
	"fmt"
	"time"
)

// Error is a refusal in PostgREST's shape: a body {code, details, hint,
// message}, code being a PGRST… code or the SQLSTATE PostgreSQL would have
// raised. The parser refuses with it, and rest/v1 answers with it as it is,
// with the HTTP status PostgREST gives its code.
type Error struct {
	Code    string
	Message string
	Details string // "" is null
	Hint    string // "" is null
	// RetryAfter, when not zero, is sent as Retry-After (an unavailable
	// store); it is not in the body.
	RetryAfter time.Duration
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// CodeParse is PostgREST's code for a query parameter or header that
// cannot be parsed.
const CodeParse = "PGRST100"

// CodeNoOperator is undefined_function: an operator the column's type
// lacks (PostgREST answers it 404, the parser's other refusals 400).
const CodeNoOperator = "42883"

// The other codes the parser refuses with.
const (
	codeEmbed       = "PGRST200" // a relationship (embedding) that does not exist
	codeNoColumn    = "42703"    // undefined_column
	codeWrongType   = "42804"    // datatype_mismatch
	codeNotNull     = "23502"    // not_null_violation
	codeBadText     = "22P02"    // invalid_text_representation
	codeBadDatetime = "22007"    // invalid_datetime_format
	codeBadEncoding = "22021"    // character_not_in_repertoire
)

func errParse(message, details string) *Error {
	return &Error{Code: CodeParse, Message: message, Details: details}
}

func errNoColumn(t *Table, name string) *Error {
	return &Error{Code: codeNoColumn,
		Message: fmt.Sprintf("column %s.%s does not exist", t.Name, name)}
}
