package contact_test

import (
	"encoding/json"
	"testing"

	"studio/internal/contact"
)

func mustJSON(t *testing.T, s contact.Submission) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{
		"name": s.Name, "email": s.Email, "company": s.Company, "phone": s.Phone, "message": s.Message, "website": s.Honeypot,
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}
