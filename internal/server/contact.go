package server

import (
	"context"
	"net/http"
	"strings"
	"time"

	"studio/internal/analytics"
	"studio/internal/contact"
	"studio/internal/form"
)

// contactProblems are the contact form's fields, each with the problem page
// named after it.
var contactProblems = contactFieldProblems()

func contactFieldProblems() []fieldProblem {
	var out []fieldProblem
	for _, r := range form.Rules.Contact {
		out = append(out, fieldProblem{r.Field, r.Field})
	}
	return out
}

// contactAccepted is the 200 answer of submit-contact.
type contactAccepted struct {
	ID         string    `json:"id"`
	ReceivedAt time.Time `json:"received_at"`
}

// handleContactSubmit handles POST /functions/v1/submit-contact: a contact
// message from the contact page. It answers 200 {"id", "received_at"} (a
// form post: 303 to /contact/sent) only once the message is committed; a
// submission that filled the honeypot gets the same answer and is kept as
// spam.
func (f *functions) handleContactSubmit(w http.ResponseWriter, r *http.Request) {
	serve(f, w, r, function[contact.Submission]{
		name: "submit-contact", problems: contactProblems, decode: decodeContact, run: f.submitContact, goal: analytics.GoalContact,
	})
}

// decodeContact is the submission in the body's fields, with the request's
// Idempotency-Key.
func decodeContact(r *http.Request, fields form.Fields) (contact.Submission, *form.Error) {
	sub, fe := contact.Decode(fields)
	if fe != nil {
		return contact.Submission{}, fe
	}
	var ok bool
	if sub.IdempotencyKey, ok = idempotencyKey(r); !ok {
		return contact.Submission{}, &form.Error{Message: form.Rules.Errors.InvalidIdempotencyKey, Fields: map[string]string{}}
	}
	return sub, nil
}

// submitContact stores the message (and queues its notification).
func (f *functions) submitContact(ctx context.Context, sub contact.Submission) (result, error) {
	if f.contact == nil {
		return result{}, errNoStore
	}
	m, err := f.contact.Submit(ctx, sub)
	if err != nil {
		return result{}, err
	}
	f.logger.Info("contact message stored", "id", m.ID, "spam", m.Spam)
	return result{answer: contactAccepted{ID: m.ID, ReceivedAt: m.ReceivedAt}, location: "/contact/sent", spam: m.Spam}, nil
}

// idempotencyKey is the request's Idempotency-Key header (a bare token, or
// the quoted string of draft-ietf-httpapi-idempotency-key-header), "" when
// there is none; ok is false when it is malformed. A page sends one key per
// message, and a load balancer may set one per request (docs/deploy.md), so
// that a request repeated after a lost answer stores and mails nothing twice.
func idempotencyKey(r *http.Request) (key string, ok bool) {
	values := r.Header.Values("Idempotency-Key")
	switch len(values) {
	case 0:
		return "", true
	case 1:
	default:
		return "", false
	}
	key = strings.TrimSpace(values[0])
	if len(key) >= 2 && key[0] == '"' && key[len(key)-1] == '"' {
		key = key[1 : len(key)-1]
	}
	if key == "" || len(key) > 255 {
		return "", false
	}
	for i := range len(key) {
		if key[i] < 0x21 || key[i] > 0x7e {
			return "", false
		}
	}
	return key, true
}
