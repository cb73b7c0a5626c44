package staff

import (
	"fmt"
	"net/mail"
	"strings"
)

// maxEmailLength is the longest address accepted (the contact form's).
const maxEmailLength = 255

// NormalizeEmail checks a bare address (no name, at most 255 bytes) and
// returns it trimmed and in lower case.
func NormalizeEmail(s string) (string, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || len(s) > maxEmailLength || a.Name != "" {
		return "", fmt.Errorf("%q is not an e-mail address", s)
	}
	return s, nil
}
