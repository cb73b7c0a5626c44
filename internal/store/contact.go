package store

import (
	"context"
	"database/sql"
	"time"

	"studio/internal/changes"
	"studio/internal/contact"
	"studio/internal/notify"
)

// Contact messages (package contact): stored with their notification
// e-mail in one transaction, once per idempotency key.

// CreateContactMessage commits m and, when email is not nil, queues the
// notification in the outbox in the same transaction: either both are
// stored or neither is. It returns m; but when a message with m's
// IdempotencyKey is stored already (the same request, repeated), it stores
// nothing and returns that message.
func (s *DB) CreateContactMessage(ctx context.Context, m contact.Message, email *notify.Email) (contact.Message, error) {
	stored := m
	err := s.writeChanges(ctx, "insert contact message", func(ctx context.Context, tx *sql.Tx) ([]changes.Change, error) {
		res, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO contact_messages
			(id, received_at, name, email, company, phone, message, spam, idempotency_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (idempotency_key) DO NOTHING`),
			m.ID, s.d.timeArg(m.ReceivedAt), m.Name, m.Email, m.Company, m.Phone, m.Message, m.Spam, nullIfEmpty(m.IdempotencyKey))
		if err != nil {
			return nil, err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			if err == nil {
				stored, err = s.contactMessageByKey(ctx, tx, m.IdempotencyKey)
			}
			return nil, err
		}
		if email != nil {
			err = s.queueMail(ctx, tx, *email, m.ReceivedAt, m.ID)
		}
		return []changes.Change{change("contact_messages", changes.Insert, m.ID)}, err
	})
	if err != nil {
		return contact.Message{}, err
	}
	return stored, nil
}

// contactMessageByKey reads the message stored under an idempotency key.
func (s *DB) contactMessageByKey(ctx context.Context, tx *sql.Tx, key string) (contact.Message, error) {
	m := contact.Message{IdempotencyKey: key}
	err := tx.QueryRowContext(ctx, s.d.rebind(`SELECT id, received_at, name, email, company, phone, message, spam
		FROM contact_messages WHERE idempotency_key = ?`), key).
		Scan(&m.ID, s.d.timeDest(&m.ReceivedAt), &m.Name, &m.Email, &m.Company, &m.Phone, &m.Message, &m.Spam)
	return m, err
}

// nullIfEmpty is nil for "" (stored as NULL), else s.
func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// ListContactMessages returns the messages received at or after since,
// oldest first, spam included.
func (s *DB) ListContactMessages(ctx context.Context, since time.Time) ([]contact.Message, error) {
	var out []contact.Message
	err := s.query(ctx, "list contact messages", `SELECT id, received_at, name, email, company, phone, message, spam
		FROM contact_messages WHERE received_at >= ? ORDER BY received_at, id`,
		[]any{s.d.timeArg(since)}, func(rows *sql.Rows) error {
			var m contact.Message
			if err := rows.Scan(&m.ID, s.d.timeDest(&m.ReceivedAt), &m.Name, &m.Email, &m.Company, &m.Phone, &m.Message, &m.Spam); err != nil {
				return err
			}
			out = append(out, m)
			return nil
		})
	return out, err
}
