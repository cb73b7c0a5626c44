package query

import (
	"fmt"
	"strings"
	"time"
)

// literal converts the text of a filter value to the column's type, as
// PostgreSQL would read the literal: PostgreSQL's error when it cannot.
func literal(c Column, s string) (any, *Error) {
	switch c.Type {
	case Bool:
		if b, ok := parseBool(s); ok {
			return b, nil
		}
		return nil, &Error{Code: codeBadText,
			Message: fmt.Sprintf("invalid input syntax for type boolean: %q", s)}
	case Time:
		if t, ok := parseTime(s); ok {
			return t, nil
		}
		return nil, &Error{Code: codeBadDatetime,
			Message: fmt.Sprintf("invalid input syntax for type timestamp with time zone: %q", s)}
	}
	return s, nil
}

// parseBool reads PostgreSQL's boolean literals.
func parseBool(s string) (bool, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "t", "true", "y", "yes", "on", "1":
		return true, true
	case "f", "false", "n", "no", "off", "0":
		return false, true
	}
	return false, false
}

// timeLayouts are the timestamp forms accepted: ISO 8601 as clients send
// it (JavaScript's toISOString), PostgreSQL's own output, and a bare date.
// A time without a zone is UTC.
var timeLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999Z07",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04:05.999999999Z07",
	"2006-01-02",
}

func parseTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, layout := range timeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// JSONValue converts a value of a JSON body (a PATCH's) for column c of t
// to the column's type, as PostgreSQL reads JSON: nil, a boolean, or a
// string read as a literal of the column's type.
func JSONValue(t *Table, c Column, v any) (any, *Error) {
	if v == nil {
		if !c.Nullable {
			return nil, &Error{Code: codeNotNull,
				Message: fmt.Sprintf("null value in column %q of relation %q violates not-null constraint", c.Name, t.Name)}
		}
		return nil, nil
	}
	switch v := v.(type) {
	case bool:
		if c.Type == Bool {
			return v, nil
		}
	case string:
		return literal(c, v) // as PostgreSQL reads a JSON string: 'true' is a boolean too
	}
	return nil, &Error{Code: codeBadText,
		Message: fmt.Sprintf("invalid input syntax for type %s: %v", typeName(c.Type), v)}
}

func typeName(t Type) string {
	switch t {
	case Bool:
		return "boolean"
	case Time:
		return "timestamp with time zone"
	}
	return "text"
}
