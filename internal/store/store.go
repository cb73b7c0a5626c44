// Package store keeps what visitors send (contact messages, waitlist and
// newsletter sign-ups), the outbox of notification e-mails and the staff
// sign-in state, in an embedded SQLite file (the default) or in PostgreSQL.
// Each noun has its file, named as in the other packages: contact.go,
// signup.go, outbox.go, users.go, codes.go, sessions.go, signing_keys.go,
// factors.go, audit.go, rest.go (the tables of /rest/v1), acme_cache.go and
// rate_buckets.go. This file opens the store, applies its migrations and
// runs transactions. Both engines run the same queries through
// database/sql; dialect.go holds what differs.
//
// Every write is one transaction; a method that returns nil has committed.
package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"log/slog"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"
	_ "modernc.org/sqlite"             // database/sql driver "sqlite"

	"studio/internal/breaker"
	"studio/internal/changes"
)

//go:embed migrations
var migrations embed.FS

// Config chooses the engine: PostgreSQL when DatabaseURL is set
// (postgres://… or postgresql://…), else SQLite in DataDir. Logger, when
// not nil, hears of the store's outages (slog.Default otherwise).
type Config struct {
	DataDir     string
	DatabaseURL string
	Logger      *slog.Logger
}

// DB is an open store. It is safe for concurrent use.
type DB struct {
	db  *sql.DB
	d   *dialect
	dsn string

	mu       sync.Mutex
	migrated bool

	stmts sync.Map // query text → *sql.Stmt, SQLite's hot reads (prepared.go)

	brk *breaker.Breaker // every call but backups goes through it (guard.go)

	changes changes.Bus

	sweepMu         sync.Mutex // held while the rate buckets are swept (sweepIfDue)
	lastBucketSweep time.Time  // guarded by sweepMu
	bucketsAdded    int        // rate buckets this server added since; guarded by sweepMu
	following       bool       // FollowChanges listens; guarded by mu

	followingChanged chan struct{} // closed when following changes; guarded by mu
	originOnce       sync.Once
	originID         string // names this server in the changes it announces (origin)
}

// Changes is the feed of rows this store committed: inserted contact
// messages, waitlist entries and subscribers, and updates made through it.
func (s *DB) Changes() *changes.Bus { return &s.changes }

// SQLiteFile is the name of the database file in the data directory.
const SQLiteFile = "studio.db"

// Open opens the store of cfg and applies the migrations it lacks. SQLite
// problems are returned at once. A PostgreSQL server that cannot be reached
// is not an error: the store retries the migrations on each use and reports
// their failure (fault.Unavailable while the server cannot be reached) until
// they succeed, so the site keeps serving pages while the database is down.
func Open(ctx context.Context, cfg Config) (*DB, error) {
	var d *dialect
	var dsn string
	switch {
	case strings.HasPrefix(cfg.DatabaseURL, "postgres://"), strings.HasPrefix(cfg.DatabaseURL, "postgresql://"):
		d, dsn = postgresDialect, cfg.DatabaseURL
	case cfg.DatabaseURL != "":
		return nil, fmt.Errorf("open store: DATABASE_URL must start with postgres:// or postgresql://")
	default:
		if err := privateFiles(cfg.DataDir); err != nil {
			return nil, fmt.Errorf("open sqlite store: %w", err)
		}
		d, dsn = sqliteDialect, sqliteDSN(path.Join(cfg.DataDir, SQLiteFile))
	}
	db, err := sql.Open(d.driver, dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s store: %w", d.name, err)
	}
	d.configure(db)
	logger := cfg.Logger
	if logger == nil {
		logger = slog.Default()
	}
	s := &DB{db: db, d: d, dsn: dsn, brk: newBreaker(d.name, logger)}
	if err := s.ready(ctx); err != nil && !d.postgres {
		db.Close()
		return nil, err
	}
	return s, nil
}

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
		return s.fail("ping "+s.d.name, err)
	}
	return nil
}

// ready applies the migrations once; a failure (of kind fault.Unavailable
// when the database cannot be reached) is retried on the next call.
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
		return s.fail("migrate", err)
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
// with op and marking them with their kind (fail). f is given the call's
// context (with its deadline, guard) and must use it, not the caller's.
func (s *DB) write(ctx context.Context, op string, f func(context.Context, *sql.Tx) error) error {
	return s.writeChanges(ctx, op, func(ctx context.Context, tx *sql.Tx) ([]changes.Change, error) { return nil, f(ctx, tx) })
}

// writeChanges is write for an f that returns the changes it made, which
// every server of the store hears of once they are committed (announce).
// It runs through the circuit breaker with the call deadline (guard).
func (s *DB) writeChanges(ctx context.Context, op string, f func(context.Context, *sql.Tx) ([]changes.Change, error)) error {
	var made []changes.Change
	err := s.guard(ctx, op, true, true, func(ctx context.Context) error {
		err := s.inTx(ctx, func(tx *sql.Tx) error {
			var err error
			if made, err = f(ctx, tx); err != nil || !s.d.postgres {
				return err
			}
			return s.announce(ctx, tx, made)
		})
		if err != nil {
			return s.fail(op, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.publishOwn(made)
	return nil
}

// query runs a read once the schema is ready and calls f for each row,
// through the circuit breaker with no call deadline (a list may be long).
func (s *DB) query(ctx context.Context, op, q string, args []any, f func(*sql.Rows) error) error {
	return s.guard(ctx, op, false, false, func(ctx context.Context) error {
		rows, err := s.db.QueryContext(ctx, s.d.rebind(q), args...)
		return s.eachRow(op, rows, err, f)
	})
}

// eachRow calls f for each of rows, the answer of a query that failed with
// err when not nil; errors are labelled with op and marked with their kind
// (fail).
func (s *DB) eachRow(op string, rows *sql.Rows, err error, f func(*sql.Rows) error) error {
	if err != nil {
		return s.fail(op, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := f(rows); err != nil {
			return s.fail(op, err)
		}
	}
	if err := rows.Err(); err != nil {
		return s.fail(op, err)
	}
	return nil
}

type scanner interface{ Scan(dest ...any) error }
