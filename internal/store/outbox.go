package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"studio/internal/notify"
)

// The outbox: notification e-mails queued in the transaction that stores
// what they tell of, and leased to the sender (package notify).

// ClaimEmails leases up to limit outbox e-mails that are due at now to the
// caller until now+lease, and counts the attempt. Another sender (another
// server on the same PostgreSQL) cannot claim them while the lease lasts; an
// e-mail whose sender died is due again when its lease ends. A sealed mail
// (notify.Email.Sealed) is scheduled by sealed_next_attempt_at, as its
// next_attempt_at keeps earlier releases from claiming it (sealedNever).
func (s *DB) ClaimEmails(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]notify.Queued, error) {
	type due struct {
		id     int64
		next   any
		sealed bool
	}
	var candidates []due
	err := s.query(ctx, "find due e-mails", `SELECT id, next_attempt_at, sealed_next_attempt_at FROM outbox
		WHERE sent_at IS NULL AND (next_attempt_at <= ? OR sealed_next_attempt_at <= ?)
		ORDER BY COALESCE(sealed_next_attempt_at, next_attempt_at), id LIMIT ?`,
		[]any{s.d.timeArg(now), s.d.timeArg(now), limit}, func(rows *sql.Rows) error {
			var d due
			var next, sealedNext any
			if err := rows.Scan(&d.id, &next, &sealedNext); err != nil {
				return err
			}
			d.next, d.sealed = next, sealedNext != nil
			if d.sealed {
				d.next = sealedNext
			}
			candidates = append(candidates, d)
			return nil
		})
	if err != nil {
		return nil, err
	}
	var claimed []notify.Queued
	for _, c := range candidates {
		var q notify.Queued
		var to string
		var sealed sql.NullString
		schedule := "next_attempt_at"
		if c.sealed {
			schedule = "sealed_next_attempt_at"
		}
		err := s.write(ctx, "claim e-mail", func(ctx context.Context, tx *sql.Tx) error {
			// Compare-and-set on the schedule: only one claimer wins.
			res, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE outbox SET `+schedule+` = ?, attempts = attempts + 1
				WHERE id = ? AND sent_at IS NULL AND `+schedule+` = ?`),
				s.d.timeArg(now.Add(lease)), c.id, c.next)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil || n != 1 {
				q.ID = 0
				return err
			}
			q.ID = c.id
			return tx.QueryRowContext(ctx, s.d.rebind(`SELECT mail_from, mail_to, reply_to, subject, body, sealed_body, attempts, created_at
				FROM outbox WHERE id = ?`), c.id).Scan(&q.Email.From, &to, &q.Email.ReplyTo, &q.Email.Subject, &q.Email.Body,
				&sealed, &q.Attempts, s.d.timeDest(&q.Created))
		})
		if err != nil {
			return claimed, err
		}
		if q.ID != 0 {
			q.Email.To = strings.Split(to, "\n")
			if sealed.Valid {
				q.Email.Sealed = []byte(sealed.String)
			}
			claimed = append(claimed, q)
		}
	}
	return claimed, nil
}

// sealedNever is the next_attempt_at of a sealed mail: a time no sender
// of a release before sealed mails ever finds due, so none sends the
// empty body it would see (docs/decisions/0021).
var sealedNever = time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)

// MarkEmailSent records that the e-mail was delivered at, and erases its
// body: a notification's copy of a message is then kept only where the
// message is, and a sign-in mail's sealed code and link (never stored in
// clear) only as hashes (in auth_one_time_codes).
func (s *DB) MarkEmailSent(ctx context.Context, id int64, at time.Time) error {
	return s.write(ctx, "mark e-mail sent", func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE outbox SET sent_at = ?, last_error = NULL, body = '',
			sealed_body = CASE WHEN sealed_body IS NULL THEN NULL ELSE '' END WHERE id = ?`),
			s.d.timeArg(at), id)
		return err
	})
}

// RetryEmail records a failed attempt and when to try again.
func (s *DB) RetryEmail(ctx context.Context, id int64, next time.Time, reason string) error {
	return s.write(ctx, "reschedule e-mail", func(ctx context.Context, tx *sql.Tx) error {
		for _, q := range []string{
			`UPDATE outbox SET next_attempt_at = ?, last_error = ? WHERE id = ? AND sealed_body IS NULL`,
			`UPDATE outbox SET sealed_next_attempt_at = ?, last_error = ? WHERE id = ? AND sealed_body IS NOT NULL`,
		} {
			if _, err := tx.ExecContext(ctx, s.d.rebind(q), s.d.timeArg(next), reason, id); err != nil {
				return err
			}
		}
		return nil
	})
}

// OutboxDepth is how many e-mails of the outbox are not sent yet.
func (s *DB) OutboxDepth(ctx context.Context) (int, error) {
	var n int
	err := s.query(ctx, "count outbox", `SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL`, nil,
		func(rows *sql.Rows) error { return rows.Scan(&n) })
	return n, err
}

// OutboxEntry is the delivery state of one queued e-mail.
type OutboxEntry struct {
	ID               int64
	ContactMessageID string
	Subject          string
	Attempts         int
	Sent             bool
	LastError        string
}

// ListOutbox returns every queued e-mail, oldest first.
func (s *DB) ListOutbox(ctx context.Context) ([]OutboxEntry, error) {
	var out []OutboxEntry
	err := s.query(ctx, "list outbox", `SELECT id, COALESCE(contact_message_id, ''), subject, attempts,
		sent_at IS NOT NULL, COALESCE(last_error, '') FROM outbox ORDER BY id`, nil, func(rows *sql.Rows) error {
		var e OutboxEntry
		if err := rows.Scan(&e.ID, &e.ContactMessageID, &e.Subject, &e.Attempts, &e.Sent, &e.LastError); err != nil {
			return err
		}
		out = append(out, e)
		return nil
	})
	return out, err
}

// queueMail adds mail to the outbox, to be sent from now on; the
// notification of a contact message names it (contactMessageID), others
// pass "".
//
// A sealed mail (mail.Sealed) is stored with an empty body and due at
// sealedNever for earlier releases, its sealed body and schedule in their
// own columns.
func (s *DB) queueMail(ctx context.Context, tx *sql.Tx, mail notify.Email, now time.Time, contactMessageID string) error {
	var sealed, next, sealedNext any = nil, s.d.timeArg(now), nil
	if len(mail.Sealed) > 0 {
		if mail.Body != "" {
			return errors.New("queue mail: a sealed mail with a body in clear")
		}
		sealed, next, sealedNext = string(mail.Sealed), s.d.timeArg(sealedNever), s.d.timeArg(now)
	}
	_, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO outbox
		(contact_message_id, mail_from, mail_to, reply_to, subject, body, sealed_body, created_at, next_attempt_at, sealed_next_attempt_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		nullIfEmpty(contactMessageID), mail.From, strings.Join(mail.To, "\n"), mail.ReplyTo, mail.Subject, mail.Body,
		sealed, s.d.timeArg(now), next, sealedNext)
	return err
}
