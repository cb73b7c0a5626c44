package form_test

import (
	"encoding/json"
	"os"
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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, got := form.Decode([]byte(tt.body), form.Rules.Contact, form.Rules.Honeypot)
			if tt.want == nil && got == nil {
				return
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Decode(%s) (-want +got):\n%s", tt.body, diff)
			}
		})
	}
}
