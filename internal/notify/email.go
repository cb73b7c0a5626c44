// Package notify e-mails the studio about new submissions. An Email is queued
// in the store's outbox in the same transaction as the submission it tells
// about; Sender delivers the outbox over SMTP in the background, with retries
// and back-off, so a mail server that is down never rejects, delays or loses
// a submission, and a restart resumes where the last run stopped.
package notify

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Email is one notification to send.
type Email struct {
	From    string
	To      []string
	ReplyTo string // optional
	Subject string
	Body    string // plain text; empty while Sealed holds it
	// Sealed is Body sealed with the secret key (SealBody): a mail that
	// carries a secret (a sign-in code and link) is queued so, and opened
	// by the sender just before it is sent (OpenBody), so that neither the
	// outbox table nor the database's log or backups hold it in clear.
	Sealed []byte
}

// Sealer seals and opens values with the secret key (auth.SecretKey).
type Sealer interface {
	Seal(plain []byte, label string) ([]byte, error)
	Open(sealed []byte, label string) ([]byte, error)
}

// SealBody seals the body with k, bound to the mail's recipients and
// subject, and empties Body.
func (e *Email) SealBody(k Sealer) error {
	sealed, err := k.Seal([]byte(e.Body), e.sealLabel())
	if err != nil {
		return fmt.Errorf("seal mail: %w", err)
	}
	e.Sealed, e.Body = sealed, ""
	return nil
}

// OpenBody restores the body SealBody sealed, with the same key.
func (e *Email) OpenBody(k Sealer) error {
	if len(e.Sealed) == 0 {
		return nil
	}
	if k == nil {
		return errors.New("the mail is sealed and this server has no secret key")
	}
	plain, err := k.Open(e.Sealed, e.sealLabel())
	if err != nil {
		return fmt.Errorf("open sealed mail: %w", err)
	}
	e.Body, e.Sealed = string(plain), nil
	return nil
}

// sealLabel binds a sealed body to its mail: moved to another row, it
// does not open.
func (e *Email) sealLabel() string {
	return "outbox mail\x00" + strings.Join(e.To, "\n") + "\x00" + e.Subject
}

// Queued is an Email in the outbox.
type Queued struct {
	ID       int64
	Email    Email
	Attempts int // delivery attempts so far, this one included once claimed
	Created  time.Time
}
