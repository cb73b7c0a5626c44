// Package form decodes and validates the JSON bodies of the backend functions
// (the contact message, the waitlist and newsletter sign-ups) with the rules
// and messages of rules.json; a native HTML form post gives the same fields
// as the JSON object (URLEncoded). The web forms import the same file
// (web/app/lib/validation.ts), and testdata/cases.json is one table of cases
// that both the Go tests and the web tests run, so the browser and the server
// can never disagree about what a valid submission is.
package form

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

//go:embed rules.json
var rulesJSON []byte

// Rule is how one field is checked, and the message shown when it fails.
type Rule struct {
	Field     string `json:"field"`
	Required  bool   `json:"required"`
	MaxLength int    `json:"maxLength"` // in Unicode code points, after trimming
	Email     bool   `json:"email"`
	Message   string `json:"message"`
}

// Messages are the user-facing messages of the functions' other errors.
type Messages struct {
	InvalidBody          string `json:"invalidBody"`
	InvalidText          string `json:"invalidText"` // a body that is not UTF-8
	UnknownField         string `json:"unknownField"`
	TooLarge             string `json:"tooLarge"`
	UnsupportedMediaType string `json:"unsupportedMediaType"`
	MethodNotAllowed     string `json:"methodNotAllowed"`
	// InvalidIdempotencyKey: a submit-contact request whose Idempotency-Key is malformed.
	InvalidIdempotencyKey string `json:"invalidIdempotencyKey"`
	RateLimited           string `json:"rateLimited"`
	Unavailable           string `json:"unavailable"`
	Internal              string `json:"internal"`
	// Captcha: with --captcha-forms, a call whose CAPTCHA token is missing or rejected.
	Captcha string `json:"captcha"`
}

// RuleSet is the content of rules.json.
type RuleSet struct {
	EmailPattern string `json:"emailPattern"`
	// Contact lists the contact form's fields in the order their messages are
	// reported (the first one is the response's "error").
	Contact []Rule `json:"contact"`
	// Honeypot is the name of the hidden contact form field that people never
	// fill in; a submission that fills it is kept as spam.
	Honeypot string `json:"honeypot"`
	Signup   struct {
		Email     Rule `json:"email"`
		ProductID Rule `json:"productId"`
	} `json:"signup"`
	Errors Messages `json:"errors"`
	// Problems maps each reason a native form post can fail for to the
	// message of its page, /forms/problem/{reason}: the web build prerenders
	// one page per key, and the server redirects only to these keys.
	Problems map[string]string `json:"problems"`
}

// ProblemInvalid is the reason of rules.json "problems" for a form post that
// cannot be read: one that does not parse, repeats or adds a field, or is not
// UTF-8 text.
const ProblemInvalid = "invalid"

// Rules are the rules of rules.json, parsed once.
var Rules = mustLoad(rulesJSON)

var emailPattern = regexp.MustCompile(Rules.EmailPattern)

func mustLoad(b []byte) RuleSet {
	var rs RuleSet
	if err := json.Unmarshal(b, &rs); err != nil {
		panic(fmt.Sprintf("form: rules.json: %v", err))
	}
	if _, ok := rs.Problems[ProblemInvalid]; !ok {
		panic("form: rules.json: no problems." + ProblemInvalid)
	}
	return rs
}

// Error is a rejected body. Message is the first problem in field order (the
// response's "error"); Fields holds every problem by field name. It is what a
// 400 response carries.
type Error struct {
	Message string            `json:"error"`
	Fields  map[string]string `json:"fields"`
}

func (e *Error) Error() string { return e.Message }

// Normalize trims leading and trailing white space (the same characters as
// JavaScript's String.prototype.trim) and drops NUL characters, which
// PostgreSQL cannot store in text. Empty results become nil.
func Normalize(v *string) *string {
	if v == nil {
		return nil
	}
	s := strings.TrimFunc(strings.ReplaceAll(*v, "\x00", ""), isJSSpace)
	if s == "" {
		return nil
	}
	return &s
}

// isJSSpace reports the characters JavaScript's trim removes: WhiteSpace and
// LineTerminator of ECMA-262. Go's unicode.IsSpace differs in U+0085 and U+FEFF.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', '\u2028', '\u2029', '\ufeff':
		return true
	}
	return unicode.Is(unicode.Zs, r)
}

// Check reports whether the normalized value v satisfies the rule.
func (r Rule) Check(v *string) bool {
	if v == nil {
		return !r.Required
	}
	if utf8.RuneCountInString(*v) > r.MaxLength {
		return false
	}
	return !r.Email || emailPattern.MatchString(*v)
}

// ValidEmail reports whether s is an address the web forms accept (the
// pattern of an HTML email input).
func ValidEmail(s string) bool { return emailPattern.MatchString(s) }

// Validate normalizes values (see Normalize) and checks them against rules.
// It returns the normalized values, or an *Error naming every field that
// fails. Values of fields without a rule are returned unchanged.
func Validate(values map[string]*string, rules []Rule) (map[string]*string, *Error) {
	out := make(map[string]*string, len(values))
	for k, v := range values {
		out[k] = v
	}
	var fe *Error
	for _, r := range rules {
		v := Normalize(values[r.Field])
		out[r.Field] = v
		if !r.Check(v) {
			fe = fe.add(r.Field, r.Message)
		}
	}
	return out, fe
}

// Fields are the fields of a submission, read once from its body (JSON or
// URLEncoded); Decode judges them.
type Fields struct {
	values    map[string]*string // each a string, or nil for null
	wrongType []string           // JSON keys whose value is neither
	err       *Error             // the body is not one object of fields
}

// JSON reads body as one JSON object, each value a string or null. A body
// that is not one JSON object is reported by Decode; so is a body that is
// not UTF-8, whole (InvalidText, no Fields), rather than stored with U+FFFD
// in place of its bad bytes.
func JSON(body []byte) Fields {
	if !utf8.Valid(body) {
		return Fields{err: invalidText()}
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil || raw == nil {
		return Fields{err: &Error{Message: Rules.Errors.InvalidBody, Fields: map[string]string{}}}
	}
	f := Fields{values: make(map[string]*string, len(raw))}
	for key, rv := range raw {
		if string(rv) == "null" {
			f.values[key] = nil
			continue
		}
		var s string
		if err := json.Unmarshal(rv, &s); err != nil {
			f.wrongType = append(f.wrongType, key)
			continue
		}
		f.values[key] = &s
	}
	return f
}

// URLEncoded reads an application/x-www-form-urlencoded body, a native HTML
// form post: each field a string, an empty one null (an empty optional
// field is absent, as in the JSON the site's script sends). It does not
// judge the fields: Decode does, so the two kinds of body meet the same
// rules, and an unknown name is reported there as in JSON. Decode also
// reports, with an *Error without Fields, what a JSON object cannot say: a
// body that does not parse (a bad escape, a semicolon), a name given more
// than once, and a name or value that is not UTF-8 once percent-decoded.
func URLEncoded(body []byte) Fields {
	vals, err := url.ParseQuery(string(body))
	if err != nil {
		return Fields{err: unreadableForm()}
	}
	for name, vs := range vals {
		if !utf8.ValidString(name) || slices.ContainsFunc(vs, func(v string) bool { return !utf8.ValidString(v) }) {
			return Fields{err: invalidText()}
		}
	}
	f := Fields{values: make(map[string]*string, len(vals))}
	for name, vs := range vals {
		if len(vs) != 1 {
			return Fields{err: unreadableForm()}
		}
		f.values[name] = nil
		if v := vs[0]; v != "" {
			f.values[name] = &v
		}
	}
	return f
}

// Take removes the field name from f and returns its value: "" when it is
// absent, null or not a string.
func (f *Fields) Take(name string) string {
	v := f.values[name]
	delete(f.values, name)
	f.wrongType = slices.DeleteFunc(f.wrongType, func(k string) bool { return k == name })
	if v == nil {
		return ""
	}
	return *v
}

// Decode checks that f holds the fields of rules, plus the optional keys in
// extra, each a string or null (an absent key is null), and validates them.
// A body that is not one object of fields, an unknown key or a value of
// another type is reported in the *Error too; the message of a field with
// the wrong type is its rule's message.
func Decode(f Fields, rules []Rule, extra ...string) (map[string]*string, *Error) {
	if f.err != nil {
		return nil, f.err
	}
	known := func(key string) bool {
		return slices.Contains(extra, key) || slices.ContainsFunc(rules, func(r Rule) bool { return r.Field == key })
	}
	values := make(map[string]*string, len(f.values))
	var typeErrs, unknown []string
	for key, v := range f.values {
		if !known(key) {
			unknown = append(unknown, key)
			continue
		}
		values[key] = v
	}
	for _, key := range f.wrongType {
		if !known(key) {
			unknown = append(unknown, key)
			continue
		}
		typeErrs = append(typeErrs, key)
	}
	slices.Sort(typeErrs)
	values, fe := Validate(values, rules)
	// A field of the wrong type fails its rule whatever Validate said.
	for _, r := range rules {
		if slices.Contains(typeErrs, r.Field) {
			fe = fe.add(r.Field, r.Message)
		}
	}
	for _, key := range typeErrs {
		if !slices.ContainsFunc(rules, func(r Rule) bool { return r.Field == key }) {
			fe = fe.add(key, Rules.Errors.InvalidBody)
		}
	}
	slices.Sort(unknown)
	for _, key := range unknown {
		fe = fe.add(key, Rules.Errors.UnknownField)
	}
	if fe != nil {
		fe.Message = firstMessage(fe, rules, unknown, typeErrs)
		return nil, fe
	}
	return values, nil
}

// add records a problem with field, keeping the first message per field.
func (e *Error) add(field, msg string) *Error {
	if e == nil {
		e = &Error{Message: msg, Fields: map[string]string{}}
	}
	if _, ok := e.Fields[field]; !ok {
		e.Fields[field] = msg
	}
	return e
}

// firstMessage is the message of the first failing field in rule order, then
// of other bad keys (wrong-typed extras, unknown keys, sorted).
func firstMessage(e *Error, rules []Rule, unknown, typeErrs []string) string {
	for _, r := range rules {
		if m, ok := e.Fields[r.Field]; ok {
			return m
		}
	}
	for _, k := range slices.Concat(typeErrs, unknown) {
		if m, ok := e.Fields[k]; ok {
			return m
		}
	}
	return e.Message
}

func invalidText() *Error {
	return &Error{Message: Rules.Errors.InvalidText, Fields: map[string]string{}}
}

// unreadableForm is a form body URLEncoded cannot read as fields.
func unreadableForm() *Error {
	return &Error{Message: Rules.Problems[ProblemInvalid], Fields: map[string]string{}}
}
