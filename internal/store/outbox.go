package store

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"studio/internal/notify"
)

// The outbox: notification e-mails queued in the transaction that stores
// what they tell of, and leased to the sender (package notify).

// ClaimEmails leases up to limit outbox e-mails that are due at now to the
// caller until now+lease, and counts the attempt. Another sender (another
// server on the same PostgreSQL) cannot claim them while the lease lasts; an
// e-mail whose sender died is due again when its lease ends.
func (s *DB) ClaimEmails(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]notify.Queued, error) {
	type due struct {
		id   int64
		next any
	}
	var candidates []due
	err := s.query(ctx, "find due e-mails", `SELECT id, next_attempt_at FROM outbox
		WHERE sent_at IS NULL AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?`,
		[]any{s.d.timeArg(now), limit}, func(rows *sql.Rows) error {
			var d due
			if err := rows.Scan(&d.id, &d.next); err != nil {
				return err
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
		err := s.write(ctx, "claim e-mail", func(ctx context.Context, tx *sql.Tx) error {
			// Compare-and-set on next_attempt_at: only one claimer wins.
			res, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE outbox SET next_attempt_at = ?, attempts = attempts + 1
				WHERE id = ? AND sent_at IS NULL AND next_attempt_at = ?`),
				s.d.timeArg(now.Add(lease)), c.id, c.next)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil || n != 1 {
				q.ID = 0
				return err
			}
			q.ID = c.id
			return tx.QueryRowContext(ctx, s.d.rebind(`SELECT mail_from, mail_to, reply_to, subject, body, attempts, created_at
				FROM outbox WHERE id = ?`), c.id).Scan(&q.Email.From, &to, &q.Email.ReplyTo, &q.Email.Subject, &q.Email.Body,
				&q.Attempts, s.d.timeDest(&q.Created))
		})
		if err != nil {
			return claimed, err
		}
		if q.ID != 0 {
			q.Email.To = strings.Split(to, "\n")
			claimed = append(claimed, q)
		}
	}
	return claimed, nil
}

// MarkEmailSent records that the e-mail was delivered at, and erases its
// body: a sign-in mail's code and link are then kept only as hashes (in
// auth_one_time_codes), and a notification's copy of a message only where
// the message is.
func (s *DB) MarkEmailSent(ctx context.Context, id int64, at time.Time) error {
	return s.write(ctx, "mark e-mail sent", func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE outbox SET sent_at = ?, last_error = NULL, body = '' WHERE id = ?`),
			s.d.timeArg(at), id)
		return err
	})
}

// RetryEmail records a failed attempt and when to try again.
func (s *DB) RetryEmail(ctx context.Context, id int64, next time.Time, reason string) error {
	return s.write(ctx, "reschedule e-mail", func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE outbox SET next_attempt_at = ?, last_error = ? WHERE id = ?`),
			s.d.timeArg(next), reason, id)
		return err
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
func (s *DB) queueMail(ctx context.Context, tx *sql.Tx, mail notify.Email, now time.Time, contactMessageID string) error {
	_, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO outbox
		(contact_message_id, mail_from, mail_to, reply_to, subject, body, created_at, next_attempt_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
		nullIfEmpty(contactMessageID), mail.From, strings.Join(mail.To, "\n"), mail.ReplyTo, mail.Subject, mail.Body,
		s.d.timeArg(now), s.d.timeArg(now))
	return err
}
