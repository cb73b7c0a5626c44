package store

import (
	"database/sql"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"studio/internal/fault"
)

// dialect is what differs between the engines; the queries are written once
// with ? placeholders.
type dialect struct {
	name   string
	driver string
	// lockMigrations, run first in each migration's transaction, keeps two
	// servers from applying one migration at the same time.
	lockMigrations string
	configure      func(*sql.DB)
	// timeArg turns a time into a query argument; timeDest into a scan target.
	timeArg  func(time.Time) any
	postgres bool
	// readTx are the options of a read that must see one snapshot.
	readTx *sql.TxOptions
	// forUpdate ends a SELECT whose rows the transaction goes on to change
	// from what it read: on PostgreSQL it locks them, so that a concurrent
	// transaction doing the same waits and then reads the committed change
	// (READ COMMITTED would let both read the old values). SQLite needs
	// nothing: its write transactions run one at a time (BEGIN IMMEDIATE).
	forUpdate string
	// driverKind classifies the driver's errors (errors.go).
	driverKind func(error) fault.Kind
}

// sqliteTime is how SQLite stores times: UTC, fixed width, so that text
// order is time order.
const sqliteTime = "2006-01-02T15:04:05.000000Z"

var sqliteDialect = &dialect{
	name:   "sqlite",
	driver: "sqlite",
	configure: func(db *sql.DB) {
		// One connection: SQLite has one writer at a time anyway, and
		// queueing in Go is fairer and faster than SQLITE_BUSY retries.
		// Other processes (the CLI) read concurrently through the WAL.
		db.SetMaxOpenConns(1)
		db.SetMaxIdleConns(1)
		db.SetConnMaxLifetime(0)
	},
	timeArg:    func(t time.Time) any { return t.UTC().Format(sqliteTime) },
	driverKind: sqliteKind,
}

var postgresDialect = &dialect{
	name:           "postgres",
	driver:         "pgx",
	lockMigrations: "SELECT pg_advisory_xact_lock(7361626) -- any constant shared by all studio servers",
	configure: func(db *sql.DB) {
		db.SetMaxOpenConns(16)
		db.SetMaxIdleConns(16)
		db.SetConnMaxIdleTime(5 * time.Minute)
	},
	timeArg:    func(t time.Time) any { return t.UTC() },
	postgres:   true,
	readTx:     &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true},
	forUpdate:  " FOR UPDATE",
	driverKind: postgresKind,
}

// sqlitePragmas are set on every connection, in this order.
var sqlitePragmas = []struct{ name, value, why string }{
	// Readers never block the writer and the writer never blocks readers
	// (the CLI can list messages while the server takes new ones); a commit
	// appends to the log instead of rewriting pages.
	{"journal_mode", "WAL", "concurrent readers, append-only commits"},
	// FULL: the log is fsynced at every commit, so a message answered 200
	// survives a power cut, not only a crash of the process (NORMAL would).
	{"synchronous", "FULL", "a committed message is on disk before the 200"},
	// Wait for another process's write lock (the CLI, a restart overlapping
	// a shutdown) instead of failing at once with SQLITE_BUSY.
	{"busy_timeout", "5000", "milliseconds"},
	// The outbox refers to contact messages; SQLite checks that only when asked.
	{"foreign_keys", "ON", "enforce references"},
	// Temporary b-trees (sorts) in memory; they are small.
	{"temp_store", "MEMORY", "small sorts"},
}

// sqliteDSN is the modernc.org/sqlite data source name of the file with the
// pragmas above, and write transactions that take the lock when they begin
// (BEGIN IMMEDIATE) so that they never fail half-way with SQLITE_BUSY.
func sqliteDSN(file string) string {
	q := url.Values{}
	for _, p := range sqlitePragmas {
		q.Add("_pragma", p.name+"("+p.value+")")
	}
	q.Set("_txlock", "immediate")
	return "file:" + file + "?" + q.Encode()
}

// timeDest returns a scan target that fills t from either engine's column.
func (d *dialect) timeDest(t *time.Time) sql.Scanner { return &timeScanner{t} }

type timeScanner struct{ t *time.Time }

func (s *timeScanner) Scan(v any) error {
	switch v := v.(type) {
	case time.Time:
		*s.t = v.UTC()
		return nil
	case string:
		return s.parse(v)
	case []byte:
		return s.parse(string(v))
	}
	return fmt.Errorf("scan time: unexpected %T", v)
}

// nullTimeDest returns a scan target that sets *t to nil for NULL and
// otherwise to the time of either engine's column.
func nullTimeDest(t **time.Time) sql.Scanner { return nullTimeScanner{t} }

type nullTimeScanner struct{ t **time.Time }

func (s nullTimeScanner) Scan(v any) error {
	if v == nil {
		*s.t = nil
		return nil
	}
	var t time.Time
	if err := (&timeScanner{&t}).Scan(v); err != nil {
		return err
	}
	*s.t = &t
	return nil
}

func (s *timeScanner) parse(v string) error {
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return fmt.Errorf("scan time: %w", err)
	}
	*s.t = t.UTC()
	return nil
}

// rebind rewrites ? placeholders as $1, $2, … for PostgreSQL. The queries
// of this package have no ? inside string literals.
func (d *dialect) rebind(q string) string {
	if !d.postgres {
		return q
	}
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// optionalTime is timeArg for a time that may be unset (NULL).
func (d *dialect) optionalTime(t *time.Time) any {
	if t == nil {
		return nil
	}
	return d.timeArg(*t)
}
