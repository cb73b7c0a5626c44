// Package store keeps what visitors send (contact messages, waitlist and
// newsletter sign-ups), the outbox of notification e-mails and the staff
// sign-in state (auth.go), in an embedded SQLite file (the default) or in
// PostgreSQL. Both engines run the same queries through database/sql;
// dialect.go holds what differs. Versioned migrations are embedded and
// applied when the store is opened.
//
// Every write is one transaction; a method that returns nil has committed.
package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"
	_ "modernc.org/sqlite"             // database/sql driver "sqlite"

	"studio/internal/changes"
	"studio/internal/contact"
	"studio/internal/notify"
	"studio/internal/signup"
)

//go:embed migrations
var migrations embed.FS

// Config chooses the engine: PostgreSQL when DatabaseURL is set
// (postgres://… or postgresql://…), else SQLite in DataDir.
type Config struct {
	DataDir     string
	DatabaseURL string
}

// DB is an open store. It is safe for concurrent use.
type DB struct {
	db  *sql.DB
	d   *dialect
	dsn string

	mu       sync.Mutex
	migrated bool

	stmts sync.Map // query text → *sql.Stmt, SQLite's hot reads (prepared.go)

	changes changes.Bus

	sweepMu         sync.Mutex // held while the rate buckets are swept (sweepIfDue)
	lastBucketSweep time.Time  // guarded by sweepMu
	bucketsAdded    int        // rate buckets this server added since; guarded by sweepMu
	following       bool       // FollowChanges listens; guarded by mu
}

// Changes is the feed of rows this store committed: inserted contact
// messages, waitlist entries and subscribers, and updates made through it.
func (s *DB) Changes() *changes.Bus { return &s.changes }

// SQLiteFile is the name of the database file in the data directory.
const SQLiteFile = "studio.db"

// Open opens the store of cfg and applies the migrations it lacks. SQLite
// problems are returned at once. A PostgreSQL server that cannot be reached
// is not an error: the store retries the migrations on each use and reports
// ErrUnavailable until they succeed, so the site keeps serving pages while
// the database is down.
func Open(ctx context.Context, cfg Config) (*DB, error) {
	var d *dialect
	var dsn string
	switch {
	case strings.HasPrefix(cfg.DatabaseURL, "postgres://"), strings.HasPrefix(cfg.DatabaseURL, "postgresql://"):
		d, dsn = postgresDialect, cfg.DatabaseURL
	case cfg.DatabaseURL != "":
		return nil, fmt.Errorf("open store: DATABASE_URL must start with postgres:// or postgresql://")
	default:
		d, dsn = sqliteDialect, sqliteDSN(path.Join(cfg.DataDir, SQLiteFile))
	}
	db, err := sql.Open(d.driver, dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s store: %w", d.name, err)
	}
	d.configure(db)
	s := &DB{db: db, d: d, dsn: dsn}
	if err := s.ready(ctx); err != nil && !errors.Is(err, ErrUnavailable) {
		db.Close()
		return nil, err
	}
	return s, nil
}

// ErrUnavailable wraps errors that mean the database cannot be reached or
// used right now; callers answer 503 and the visitor may try again.
var ErrUnavailable = errors.New("store unavailable")

// Engine is "sqlite" or "postgres".
func (s *DB) Engine() string { return s.d.name }

// Close closes the database.
func (s *DB) Close() error { return s.db.Close() }

// Ping reports whether the database answers and its schema is current.
func (s *DB) Ping(ctx context.Context) error {
	if err := s.ready(ctx); err != nil {
		return err
	}
	if err := s.db.PingContext(ctx); err != nil {
		return fmt.Errorf("ping %s: %w: %w", s.d.name, ErrUnavailable, err)
	}
	return nil
}

// ready applies the migrations once; for PostgreSQL a failure to connect is
// reported as ErrUnavailable and retried on the next call.
func (s *DB) ready(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.migrated {
		return nil
	}
	// Callers queue on the lock meanwhile: bound the attempt.
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := s.migrate(ctx); err != nil {
		if s.d.name == "postgres" {
			return fmt.Errorf("%w: %w", ErrUnavailable, err)
		}
		return err
	}
	s.migrated = true
	return nil
}

// migrate applies, in order and each in its own transaction, the embedded
// migrations newer than the schema's version.
func (s *DB) migrate(ctx context.Context) error {
	dir := "migrations/" + s.d.name
	entries, err := fs.ReadDir(migrations, dir)
	if err != nil {
		return fmt.Errorf("read migrations: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`); err != nil {
		return fmt.Errorf("migrate %s: %w", s.d.name, err)
	}
	for _, e := range entries {
		version, err := strconv.Atoi(strings.SplitN(e.Name(), "_", 2)[0])
		if err != nil {
			return fmt.Errorf("migration %s: name must start with a number", e.Name())
		}
		body, err := fs.ReadFile(migrations, dir+"/"+e.Name())
		if err != nil {
			return fmt.Errorf("read migration %s: %w", e.Name(), err)
		}
		err = s.inTx(ctx, func(tx *sql.Tx) error {
			// Several servers may start at once against one PostgreSQL:
			// one applies the migration while the others wait here.
			if s.d.lockMigrations != "" {
				if _, err := tx.ExecContext(ctx, s.d.lockMigrations); err != nil {
					return err
				}
			}
			var n int
			if err := tx.QueryRowContext(ctx, s.d.rebind(`SELECT COUNT(*) FROM schema_migrations WHERE version = ?`), version).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return nil
			}
			if _, err := tx.ExecContext(ctx, string(body)); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`),
				version, e.Name(), time.Now().UTC().Format(time.RFC3339))
			return err
		})
		if err != nil {
			return fmt.Errorf("apply migration %s: %w", e.Name(), err)
		}
	}
	return nil
}

// inTx runs f in a transaction and commits it; any error rolls it back.
func (s *DB) inTx(ctx context.Context, f func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := f(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// write runs f in a transaction once the schema is ready, labelling errors
// with op and marking failures to reach the database as ErrUnavailable.
func (s *DB) write(ctx context.Context, op string, f func(*sql.Tx) error) error {
	return s.writeChanges(ctx, op, func(tx *sql.Tx) ([]changes.Change, error) { return nil, f(tx) })
}

// writeChanges is write for an f that returns the changes it made, which
// every server of the store hears of once they are committed (announce).
func (s *DB) writeChanges(ctx context.Context, op string, f func(*sql.Tx) ([]changes.Change, error)) error {
	if err := s.ready(ctx); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	var made []changes.Change
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		if made, err = f(tx); err != nil || !s.d.postgres {
			return err
		}
		return s.announce(ctx, tx, made)
	})
	if err != nil {
		return fmt.Errorf("%s: %w: %w", op, ErrUnavailable, err)
	}
	if !s.d.postgres {
		for _, c := range made {
			s.changes.Publish(c)
		}
	}
	return nil
}

// CreateContactMessage commits m and, when email is not nil, queues the
// notification in the outbox in the same transaction: either both are
// stored or neither is. It returns m; but when a message with m's
// IdempotencyKey is stored already (the same request, repeated), it stores
// nothing and returns that message.
func (s *DB) CreateContactMessage(ctx context.Context, m contact.Message, email *notify.Email) (contact.Message, error) {
	stored := m
	err := s.writeChanges(ctx, "insert contact message", func(tx *sql.Tx) ([]changes.Change, error) {
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
			_, err = tx.ExecContext(ctx, s.d.rebind(`INSERT INTO outbox
				(contact_message_id, mail_from, mail_to, reply_to, subject, body, created_at, next_attempt_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
				m.ID, email.From, strings.Join(email.To, "\n"), email.ReplyTo, email.Subject, email.Body,
				s.d.timeArg(m.ReceivedAt), s.d.timeArg(m.ReceivedAt))
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

// JoinWaitlist adds e unless its address is already on the product's
// waitlist; created reports which.
func (s *DB) JoinWaitlist(ctx context.Context, e signup.WaitlistEntry) (created bool, err error) {
	return s.insertOnce(ctx, "insert waitlist entry", change("waitlist_entries", changes.Insert, e.ProductID, e.Email),
		`INSERT INTO waitlist_entries (product_id, email, joined_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
		e.ProductID, e.Email, s.d.timeArg(e.JoinedAt))
}

// ListWaitlist returns every waitlist entry, by product, oldest first.
func (s *DB) ListWaitlist(ctx context.Context) ([]signup.WaitlistEntry, error) {
	var out []signup.WaitlistEntry
	err := s.query(ctx, "list waitlist", `SELECT product_id, email, joined_at FROM waitlist_entries
		ORDER BY product_id, joined_at, email`, nil, func(rows *sql.Rows) error {
		var e signup.WaitlistEntry
		if err := rows.Scan(&e.ProductID, &e.Email, s.d.timeDest(&e.JoinedAt)); err != nil {
			return err
		}
		out = append(out, e)
		return nil
	})
	return out, err
}

// Subscribe adds sub unless its address is already subscribed; created
// reports which.
func (s *DB) Subscribe(ctx context.Context, sub signup.Subscriber) (created bool, err error) {
	return s.insertOnce(ctx, "insert newsletter subscriber", change("newsletter_subscribers", changes.Insert, sub.Email),
		`INSERT INTO newsletter_subscribers (email, subscribed_at) VALUES (?, ?) ON CONFLICT DO NOTHING`,
		sub.Email, s.d.timeArg(sub.SubscribedAt))
}

// insertOnce runs an INSERT … ON CONFLICT DO NOTHING; created reports
// whether it added the row, which is then announced as c.
func (s *DB) insertOnce(ctx context.Context, op string, c changes.Change, query string, args ...any) (created bool, err error) {
	err = s.writeChanges(ctx, op, func(tx *sql.Tx) ([]changes.Change, error) {
		res, err := tx.ExecContext(ctx, s.d.rebind(query), args...)
		if err != nil {
			return nil, err
		}
		n, err := res.RowsAffected()
		if created = n == 1; !created {
			return nil, err
		}
		return []changes.Change{c}, err
	})
	return created, err
}

// ListSubscribers returns every newsletter subscriber, oldest first.
func (s *DB) ListSubscribers(ctx context.Context) ([]signup.Subscriber, error) {
	var out []signup.Subscriber
	err := s.query(ctx, "list newsletter subscribers", `SELECT email, subscribed_at FROM newsletter_subscribers
		ORDER BY subscribed_at, email`, nil, func(rows *sql.Rows) error {
		var sub signup.Subscriber
		if err := rows.Scan(&sub.Email, s.d.timeDest(&sub.SubscribedAt)); err != nil {
			return err
		}
		out = append(out, sub)
		return nil
	})
	return out, err
}

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
		err := s.write(ctx, "claim e-mail", func(tx *sql.Tx) error {
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

// MarkEmailSent records that the e-mail was delivered at.
func (s *DB) MarkEmailSent(ctx context.Context, id int64, at time.Time) error {
	return s.write(ctx, "mark e-mail sent", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE outbox SET sent_at = ?, last_error = NULL WHERE id = ?`),
			s.d.timeArg(at), id)
		return err
	})
}

// RetryEmail records a failed attempt and when to try again.
func (s *DB) RetryEmail(ctx context.Context, id int64, next time.Time, reason string) error {
	return s.write(ctx, "reschedule e-mail", func(tx *sql.Tx) error {
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

// query runs a read once the schema is ready and calls f for each row.
func (s *DB) query(ctx context.Context, op, q string, args []any, f func(*sql.Rows) error) error {
	if err := s.ready(ctx); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	rows, err := s.db.QueryContext(ctx, s.d.rebind(q), args...)
	return eachRow(op, rows, err, f)
}

// eachRow calls f for each of rows, the answer of a query that failed with
// err when not nil.
func eachRow(op string, rows *sql.Rows, err error, f func(*sql.Rows) error) error {
	if err != nil {
		return fmt.Errorf("%s: %w: %w", op, ErrUnavailable, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := f(rows); err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}
