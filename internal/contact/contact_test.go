package contact_test

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"studio/internal/contact"
	"studio/internal/form"
)

func TestDecode(t *testing.T) {
	company := "Acme"
	tests := []struct {
		name string
		body string
		want contact.Submission
	}{
		{"the wire contract", `{"name":" Ada ","email":"ada@example.com","company":"Acme","phone":null,"message":"Hi"}`,
			contact.Submission{Name: "Ada", Email: "ada@example.com", Company: &company, Message: "Hi"}},
		{"the honeypot", `{"name":"Ada","email":"ada@example.com","company":null,"phone":null,"message":"Hi","website":" x "}`,
			contact.Submission{Name: "Ada", Email: "ada@example.com", Message: "Hi", Honeypot: "x"}},
		{"an empty honeypot is no honeypot", `{"name":"Ada","email":"ada@example.com","message":"Hi","website":"  "}`,
			contact.Submission{Name: "Ada", Email: "ada@example.com", Message: "Hi"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := contact.Decode(form.JSON([]byte(tt.body)))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestNotificationEmail(t *testing.T) {
	m := contact.Message{ID: "id1", ReceivedAt: time.Date(2025, 5, 16, 9, 30, 0, 0, time.UTC), Name: "Ada\r\nBcc: evil@example.com", Email: "ada@example.com", Message: "Hello"}
	e := contact.NotificationEmail(m, contact.Notify{From: "site@studio.test", To: []string{"team@studio.test"}})
	if strings.ContainsAny(e.Subject, "\r\n") {
		t.Errorf("subject %q spans lines", e.Subject)
	}
	if e.ReplyTo != "ada@example.com" || !strings.Contains(e.Body, "Hello") || !strings.Contains(e.Body, "ID:       id1") {
		t.Errorf("e-mail = %+v", e)
	}
}

// FuzzDecode feeds arbitrary bodies to the decoder and validator of
// submit-contact. It must never panic; it either rejects the body with a
// message for people, or returns a submission that satisfies every rule
// (so the store never sees a value the rules forbid). The seed corpus is in
// testdata/fuzz/FuzzDecode and runs with every go test.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"name":"Ada","email":"ada@example.com","company":null,"phone":null,"message":"Hi"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		sub, err := contact.Decode(form.JSON(body))
		if err != nil {
			var fe *form.Error
			if !errors.As(err, &fe) || fe.Message == "" || fe.Fields == nil {
				t.Fatalf("Decode(%q) = %#v, want a *form.Error with a message", body, err)
			}
			for field, msg := range fe.Fields {
				if msg == "" {
					t.Fatalf("field %q without a message", field)
				}
			}
			return
		}
		values := map[string]*string{"name": &sub.Name, "email": &sub.Email, "company": sub.Company, "phone": sub.Phone, "message": &sub.Message}
		for _, r := range form.Rules.Contact {
			v := values[r.Field]
			if !r.Check(v) {
				t.Fatalf("accepted %s = %q that fails its rule", r.Field, deref(v))
			}
			if v != nil && (!utf8.ValidString(*v) || strings.ContainsRune(*v, 0) || *v != deref(form.Normalize(v))) {
				t.Fatalf("accepted %s = %q: not normalized", r.Field, *v)
			}
		}
		// Decoding is stable: the accepted values decode to themselves.
		again, err := contact.Decode(form.JSON(mustJSON(t, sub)))
		if err != nil {
			t.Fatalf("re-decoding an accepted submission: %v", err)
		}
		if diff := cmp.Diff(sub, again); diff != "" {
			t.Fatalf("re-decoded (-first +second):\n%s", diff)
		}
	})
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}
