// Package notify e-mails the studio about new submissions. An Email is queued
// in the store's outbox in the same transaction as the submission it tells
// about; Sender delivers the outbox over SMTP in the background, with retries
// and back-off, so a mail server that is down never rejects, delays or loses
// a submission, and a restart resumes where the last run stopped.
package notify

import "time"

// Email is one notification to send.
type Email struct {
	From    string
	To      []string
	ReplyTo string // optional
	Subject string
	Body    string // plain text
}

// Queued is an Email in the outbox.
type Queued struct {
	ID       int64
	Email    Email
	Attempts int // delivery attempts so far, this one included once claimed
	Created  time.Time
}
