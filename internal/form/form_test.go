package form_test

import (
	"encoding/json"
	"maps"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"studio/internal/form"
)

// sharedCase is one row of testdata/cases.json, the table the web tests run too.
type sharedCase struct {
	Name       string                     `json:"name"`
	Form       string                     `json:"form"`
	Input      map[string]json.RawMessage `json:"input"`
	Errors     map[string]string          `json:"errors"`
	Normalized map[string]json.RawMessage `json:"normalized"`
}

// text expands a string of the table: "s", null, {"repeat": s, "count": n} or {"concat": [...]}.
func text(t *testing.T, raw json.RawMessage) *string {
	t.Helper()
	if string(raw) == "null" {
		return nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return &s
	}
	var spec struct {
		Repeat *string           `json:"repeat"`
		Count  int               `json:"count"`
		Concat []json.RawMessage `json:"concat"`
	}
	if err := json.Unmarshal(raw, &spec); err != nil {
		t.Fatalf("bad table string %s: %v", raw, err)
	}
	if spec.Repeat != nil {
		s = strings.Repeat(*spec.Repeat, spec.Count)
		return &s
	}
	var b strings.Builder
	for _, part := range spec.Concat {
		b.WriteString(*text(t, part))
	}
	s = b.String()
	return &s
}

func rulesOf(t *testing.T, name string) []form.Rule {
	t.Helper()
	switch name {
	case "contact":
		return form.Rules.Contact
	case "signupEmail":
		return []form.Rule{form.Rules.Signup.Email}
	}
	t.Fatalf("unknown form %q", name)
	return nil
}

// TestSharedValidationCases runs the validation table shared with the web
// tests (web/app/lib/validation.test.ts) against the Go validator.
func TestSharedValidationCases(t *testing.T) {
	b, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var table struct{ Cases []sharedCase }
	if err := json.Unmarshal(b, &table); err != nil {
		t.Fatal(err)
	}
	if len(table.Cases) < 20 {
		t.Fatalf("only %d shared cases", len(table.Cases))
	}
	for _, tc := range table.Cases {
		t.Run(tc.Name, func(t *testing.T) {
			input := map[string]*string{}
			for k, raw := range tc.Input {
				input[k] = text(t, raw)
			}
			got, fe := form.Validate(input, rulesOf(t, tc.Form))
			gotErrors := map[string]string{}
			if fe != nil {
				gotErrors = fe.Fields
			}
			if tc.Errors == nil {
				tc.Errors = map[string]string{}
			}
			if diff := cmp.Diff(tc.Errors, gotErrors); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			for k, raw := range tc.Normalized {
				if diff := cmp.Diff(text(t, raw), got[k]); diff != "" {
					t.Errorf("normalized %s (-want +got):\n%s", k, diff)
				}
			}
		})
	}
}

func TestDecode(t *testing.T) {
	m := form.Rules.Errors
	nameMsg, emailMsg, msgMsg := form.Rules.Contact[0].Message, form.Rules.Contact[1].Message, form.Rules.Contact[4].Message
	ok := `"name":"Ada","email":"ada@example.com","company":null,"phone":null,"message":"Hi"`
	tests := []struct {
		name string
		body string
		want *form.Error
	}{
		{"valid", `{` + ok + `}`, nil},
		{"optional fields absent", `{"name":"Ada","email":"ada@example.com","message":"Hi"}`, nil},
		{"honeypot allowed", `{` + ok + `,"website":""}`, nil},
		{"not JSON", `name=Ada`, &form.Error{Message: m.InvalidBody, Fields: map[string]string{}}},
		{"truncated JSON", `{"name":"Ada"`, &form.Error{Message: m.InvalidBody, Fields: map[string]string{}}},
		{"an array", `[]`, &form.Error{Message: m.InvalidBody, Fields: map[string]string{}}},
		{"null", `null`, &form.Error{Message: m.InvalidBody, Fields: map[string]string{}}},
		{"two objects", `{` + ok + `} {}`, &form.Error{Message: m.InvalidBody, Fields: map[string]string{}}},
		{"empty body", ``, &form.Error{Message: m.InvalidBody, Fields: map[string]string{}}},
		{"empty object: every required field", `{}`, &form.Error{Message: nameMsg, Fields: map[string]string{"name": nameMsg, "email": emailMsg, "message": msgMsg}}},
		{"number for name", `{"name":42,"email":"ada@example.com","message":"Hi"}`, &form.Error{Message: nameMsg, Fields: map[string]string{"name": nameMsg}}},
		{"object for message", `{"name":"Ada","email":"ada@example.com","message":{"text":"Hi"}}`, &form.Error{Message: msgMsg, Fields: map[string]string{"message": msgMsg}}},
		{"number for optional phone", `{` + strings.Replace(ok, `"phone":null`, `"phone":415`, 1) + `}`, &form.Error{Message: form.Rules.Contact[3].Message, Fields: map[string]string{"phone": form.Rules.Contact[3].Message}}},
		{"unknown field", `{` + ok + `,"subject":"x"}`, &form.Error{Message: m.UnknownField, Fields: map[string]string{"subject": m.UnknownField}}},
		{"unknown field after a bad field: the field's message first", `{"zzz":1,"name":"","email":"ada@example.com","message":"Hi"}`, &form.Error{Message: nameMsg, Fields: map[string]string{"name": nameMsg, "zzz": m.UnknownField}}},
		{"wrong type for the honeypot", `{` + ok + `,"website":true}`, &form.Error{Message: m.InvalidBody, Fields: map[string]string{"website": m.InvalidBody}}},
		{"invalid UTF-8 in a value", "{\"name\":\"Ada \xff\",\"email\":\"ada@example.com\",\"message\":\"Hi\"}", &form.Error{Message: m.InvalidText, Fields: map[string]string{}}},
		{"invalid UTF-8 in a key", "{" + ok + ",\"\xc0\xaf\":\"x\"}", &form.Error{Message: m.InvalidText, Fields: map[string]string{}}},
		{"invalid UTF-8 outside the strings", "{" + ok + "}\xff", &form.Error{Message: m.InvalidText, Fields: map[string]string{}}},
		{"a UTF-8 encoded surrogate", "{\"name\":\"\xed\xa0\x80\",\"email\":\"ada@example.com\",\"message\":\"Hi\"}", &form.Error{Message: m.InvalidText, Fields: map[string]string{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, got := form.Decode(form.JSON([]byte(tt.body)), form.Rules.Contact, form.Rules.Honeypot)
			if tt.want == nil && got == nil {
				return
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Decode(%s) (-want +got):\n%s", tt.body, diff)
			}
		})
	}
}

// TestURLEncoded: a native form post gives the fields a JSON object would,
// or an *Error without fields when it cannot be one.
func TestURLEncoded(t *testing.T) {
	invalid := &form.Error{Message: form.Rules.Problems[form.ProblemInvalid], Fields: map[string]string{}}
	invalidText := &form.Error{Message: form.Rules.Errors.InvalidText, Fields: map[string]string{}}
	tests := []struct {
		name    string
		body    string
		want    map[string]any // the fields, as a JSON object; nil when an error is wanted
		wantErr *form.Error
	}{
		{"the contact form", "name=Ada+Lovelace&email=ada%40example.com&company=&phone=&message=Let%27s+build%0D%0Aan+MVP.&website=",
			map[string]any{"name": "Ada Lovelace", "email": "ada@example.com", "company": nil, "phone": nil, "message": "Let's build\r\nan MVP.", "website": nil}, nil},
		{"percent-encoded UTF-8", "name=Zo%C3%AB+%F0%9F%98%80", map[string]any{"name": "Zoë 😀"}, nil},
		{"raw UTF-8", "name=Zoë", map[string]any{"name": "Zoë"}, nil},
		{"a name without a value is empty", "company&name=Ada", map[string]any{"company": nil, "name": "Ada"}, nil},
		{"an unknown name is kept for Decode to report", "admin=1", map[string]any{"admin": "1"}, nil},
		{"NUL is kept for Normalize to drop", "name=A%00da", map[string]any{"name": "A\x00da"}, nil},
		{"empty body", "", map[string]any{}, nil},
		{"a field twice", "name=Ada&name=Bob", nil, invalid},
		{"an empty field twice", "company=&company=", nil, invalid},
		{"a bad escape", "name=%ZZ", nil, invalid},
		{"a semicolon", "name=Ada;email=ada%40example.com", nil, invalid},
		{"a percent-encoded byte that is not UTF-8", "name=Ada%FF", nil, invalidText},
		{"a raw byte that is not UTF-8", "name=Ada\xff", nil, invalidText},
		{"an overlong encoding", "name=%C0%AF", nil, invalidText},
		{"an encoded surrogate", "name=%ED%A0%80", nil, invalidText},
		{"a name that is not UTF-8", "na%FEme=Ada", nil, invalidText},
		{"not UTF-8 wins over a repeated field", "name=Ada&name=Bob&email=%FF", nil, invalidText},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var names []string // every name known, none judged by a rule
			for name := range tt.want {
				names = append(names, name)
			}
			got, fe := form.Decode(form.URLEncoded([]byte(tt.body)), nil, names...)
			if diff := cmp.Diff(tt.wantErr, fe); diff != "" {
				t.Fatalf("error (-want +got):\n%s", diff)
			}
			if tt.want == nil {
				return
			}
			obj := map[string]any{}
			for name, v := range got {
				obj[name] = nil
				if v != nil {
					obj[name] = *v
				}
			}
			if diff := cmp.Diff(tt.want, obj); diff != "" {
				t.Errorf("fields (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTake: a field taken (the CAPTCHA token) is gone from the fields the
// decoder judges, from JSON and a form post alike; a value that is not a
// string is no token.
func TestTake(t *testing.T) {
	ok := `"name":"Ada","email":"ada@example.com","message":"Hi"`
	okForm := "name=Ada&email=ada%40example.com&message=Hi"
	tests := []struct {
		name   string
		fields form.Fields
		token  string
	}{
		{"JSON", form.JSON([]byte(`{` + ok + `,"captcha_token":"t-1"}`)), "t-1"},
		{"JSON, null", form.JSON([]byte(`{` + ok + `,"captcha_token":null}`)), ""},
		{"JSON, a number", form.JSON([]byte(`{` + ok + `,"captcha_token":7}`)), ""},
		{"JSON, none", form.JSON([]byte(`{` + ok + `}`)), ""},
		{"a form post", form.URLEncoded([]byte(okForm + "&captcha_token=t-2")), "t-2"},
		{"a form post, empty", form.URLEncoded([]byte(okForm + "&captcha_token=")), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.fields.Take("captcha_token"); got != tt.token {
				t.Errorf("Take = %q, want %q", got, tt.token)
			}
			if _, fe := form.Decode(tt.fields, form.Rules.Contact); fe != nil {
				t.Errorf("the fields left: %v", fe.Fields)
			}
		})
	}
}

// TestURLEncodedDecodesLikeJSON: a form post and the JSON the site's
// script sends for the same input meet the same rules with the same result.
func TestURLEncodedDecodesLikeJSON(t *testing.T) {
	tests := []struct{ name, form, json string }{
		{"valid", "name=+Ada+&email=ada%40example.com&company=&phone=%2B1+415&message=Hi&website=",
			`{"name":" Ada ","email":"ada@example.com","company":null,"phone":"+1 415","message":"Hi","website":null}`},
		{"every required field missing", "", `{}`},
		{"blank and too long", "name=+++&email=ada&message=" + strings.Repeat("x", 5001),
			`{"name":"   ","email":"ada","message":"` + strings.Repeat("x", 5001) + `"}`},
		{"unknown field", "name=Ada&email=ada%40example.com&message=Hi&admin=1",
			`{"name":"Ada","email":"ada@example.com","message":"Hi","admin":"1"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gotV, gotErr := form.Decode(form.URLEncoded([]byte(tt.form)), form.Rules.Contact, form.Rules.Honeypot)
			wantV, wantErr := form.Decode(form.JSON([]byte(tt.json)), form.Rules.Contact, form.Rules.Honeypot)
			if diff := cmp.Diff(wantErr, gotErr); diff != "" {
				t.Errorf("error (-JSON +form):\n%s", diff)
			}
			if diff := cmp.Diff(wantV, gotV); diff != "" {
				t.Errorf("values (-JSON +form):\n%s", diff)
			}
		})
	}
}

// TestProblems: the problems of rules.json, one page each at
// /forms/problem/{reason}, show the messages the JSON answers carry for the
// same failure, and their keys are safe in a path.
func TestProblems(t *testing.T) {
	e := form.Rules.Errors
	want := map[string]string{
		"signup-email": form.Rules.Signup.Email.Message,
		"product":      form.Rules.Signup.ProductID.Message,
		"too-large":    e.TooLarge,
		"rate-limited": e.RateLimited,
		"unavailable":  e.Unavailable,
		"internal":     e.Internal,
	}
	for _, r := range form.Rules.Contact {
		want[r.Field] = r.Message
	}
	got := maps.Clone(form.Rules.Problems)
	if got[form.ProblemInvalid] == "" {
		t.Errorf("problems.%s is missing", form.ProblemInvalid)
	}
	delete(got, form.ProblemInvalid)
	// A form posted without JavaScript has no CAPTCHA token: its page says
	// the form needs JavaScript (the JSON answer asks to complete the check).
	if !strings.Contains(got["captcha"], "without JavaScript") {
		t.Errorf("problems.captcha = %q, want it to say the form cannot be sent without JavaScript", got["captcha"])
	}
	delete(got, "captcha")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	safe := regexp.MustCompile(`^[a-z]+(-[a-z]+)*$`)
	for k := range form.Rules.Problems {
		if !safe.MatchString(k) {
			t.Errorf("problem %q is not a lower-case path segment", k)
		}
	}
	if e.InvalidText == "" || !strings.Contains(e.UnsupportedMediaType, "application/x-www-form-urlencoded") {
		t.Errorf("errors = %+v", e)
	}
}
