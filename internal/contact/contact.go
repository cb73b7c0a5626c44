// Package contact is the message a visitor sends from the contact page: its
// type, how a request body becomes one (decoding and validation with the
// shared rules of package form), and the service that stores it and queues
// the studio's notification e-mail.
package contact

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"studio/internal/form"
	"studio/internal/notify"
)

// Message is a contact message as stored.
type Message struct {
	ID         string    `json:"id"`
	ReceivedAt time.Time `json:"received_at"`
	Name       string    `json:"name"`
	Email      string    `json:"email"`
	Company    *string   `json:"company"`
	Phone      *string   `json:"phone"`
	Message    string    `json:"message"`
	// Spam marks a submission that filled in the form's hidden honeypot
	// field: it is kept, answered like any other, and never notified.
	Spam bool `json:"spam"`
	// IdempotencyKey is the Idempotency-Key of the request that sent it, if
	// any: a request repeated with the same key gets this message back.
	IdempotencyKey string `json:"-"`
}

// Submission is a validated body of POST /functions/v1/submit-contact.
type Submission struct {
	Name    string
	Email   string
	Company *string
	Phone   *string
	Message string
	// Honeypot is the hidden field's value; people leave it empty.
	Honeypot string
	// IdempotencyKey is the request's Idempotency-Key header, or "".
	IdempotencyKey string
}

// Decode validates a request's fields (form.JSON or form.URLEncoded of its
// body): name, email, company (or null), phone (or null), message and, from
// the site's form, the honeypot field. It returns a *form.Error for any bad
// input.
func Decode(f form.Fields) (Submission, *form.Error) {
	v, fe := form.Decode(f, form.Rules.Contact, form.Rules.Honeypot)
	if fe != nil {
		return Submission{}, fe
	}
	s := Submission{
		Name:    *v["name"],
		Email:   *v["email"],
		Company: v["company"],
		Phone:   v["phone"],
		Message: *v["message"],
	}
	if hp := form.Normalize(v[form.Rules.Honeypot]); hp != nil {
		s.Honeypot = *hp
	}
	return s, nil
}

// Store keeps contact messages.
type Store interface {
	// CreateContactMessage commits m and, when notification is not nil,
	// queues it in the outbox in the same transaction, and returns m. When
	// a message with m's IdempotencyKey is stored already, it stores nothing
	// and returns that message.
	CreateContactMessage(ctx context.Context, m Message, notification *notify.Email) (Message, error)
}

// Notify says where the notification of a new message goes. The zero value
// sends none.
type Notify struct {
	From string
	To   []string
	// Queued, when set, is called after a notification was committed to the
	// outbox (it wakes the sender).
	Queued func()
}

// Service accepts contact messages.
type Service struct {
	Store  Store
	Notify Notify
	Now    func() time.Time // defaults to time.Now
}

// Submit stores the submission and returns the stored message (for a
// repeated IdempotencyKey, the one first stored). When it returns nil the
// message is committed; any error comes from the store.
func (s *Service) Submit(ctx context.Context, sub Submission) (Message, error) {
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	id, err := uuid.NewV7() // time-ordered: ids sort like arrival
	if err != nil {
		return Message{}, fmt.Errorf("new contact message id: %w", err)
	}
	m := Message{
		ID: id.String(),
		// Microseconds: what both stores keep, so a read-back compares equal.
		ReceivedAt: now().UTC().Truncate(time.Microsecond),
		Name:       sub.Name,
		Email:      sub.Email,
		Company:    sub.Company,
		Phone:      sub.Phone,
		Message:    sub.Message,
		Spam:       sub.Honeypot != "",

		IdempotencyKey: sub.IdempotencyKey,
	}
	var email *notify.Email
	if len(s.Notify.To) > 0 && !m.Spam {
		e := NotificationEmail(m, s.Notify)
		email = &e
	}
	stored, err := s.Store.CreateContactMessage(ctx, m, email)
	if err != nil {
		return Message{}, fmt.Errorf("submit contact message: %w", err)
	}
	if email != nil && stored.ID == m.ID && s.Notify.Queued != nil {
		s.Notify.Queued()
	}
	return stored, nil
}

// NotificationEmail is the e-mail that tells the studio about m. Its Reply-To
// is the visitor, so staff can answer directly.
func NotificationEmail(m Message, n Notify) notify.Email {
	var b strings.Builder
	fmt.Fprintf(&b, "A new message came in through the contact form.\n\n")
	fmt.Fprintf(&b, "Name:     %s\n", m.Name)
	fmt.Fprintf(&b, "Email:    %s\n", m.Email)
	fmt.Fprintf(&b, "Company:  %s\n", orDash(m.Company))
	fmt.Fprintf(&b, "Phone:    %s\n", orDash(m.Phone))
	fmt.Fprintf(&b, "Received: %s\n", m.ReceivedAt.Format(time.RFC3339))
	fmt.Fprintf(&b, "ID:       %s\n\n", m.ID)
	b.WriteString(m.Message)
	b.WriteString("\n")
	return notify.Email{
		From:    n.From,
		To:      n.To,
		ReplyTo: m.Email,
		Subject: "New contact message from " + oneLine(m.Name),
		Body:    b.String(),
	}
}

func orDash(s *string) string {
	if s == nil {
		return "-"
	}
	return *s
}

// oneLine keeps a header value on one line whatever the visitor typed.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
