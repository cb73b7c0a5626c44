package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"studio/internal/fault"
)

// ErrUnavailable is fault.Unavailable, by the name callers of the store
// first knew it.
var ErrUnavailable error = fault.Unavailable

// fail labels err, the failure of the store's operation op, with op, and
// marks it with its kind (package fault; decision 0014) unless it carries
// one already: a refusal of package auth such as staff.ErrNotFound, or an
// error marked deeper down. An error of no known kind is left unmarked:
// fault.KindOf calls it Internal.
func (s *DB) fail(op string, err error) error {
	var k fault.Kind
	if !errors.As(err, &k) {
		if k = s.d.kindOf(err); k != fault.Internal {
			err = fault.Mark(k, err)
		}
	}
	return fmt.Errorf("%s: %w", op, err)
}

// kindOf classifies err, returned by a database/sql call: first what both
// engines share (the request's deadline or its end, a connection
// database/sql gave up on, a row that is not there), then the engine's own
// errors (sqliteKind, postgresKind).
func (d *dialect) kindOf(err error) fault.Kind {
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled),
		errors.Is(err, driver.ErrBadConn), errors.Is(err, sql.ErrConnDone):
		return fault.Unavailable
	case errors.Is(err, sql.ErrNoRows):
		return fault.NotFound
	}
	return d.driverKind(err)
}

// sqliteKind classifies an error of modernc.org/sqlite by its result code:
// a database locked past busy_timeout, a full disk, a failing disk, no
// memory, a file that cannot be opened, or an interrupted statement (a
// deadline) are Unavailable; a unique, primary key or foreign key
// constraint is a Conflict, any other constraint (check, not null) a value
// that is Invalid. Everything else (an SQL error, a corrupt or read-only
// file) is Internal.
func sqliteKind(err error) fault.Kind {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return fault.Internal
	}
	code := se.Code()
	switch code & 0xff { // the primary result code of an extended one
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR,
		sqlite3.SQLITE_NOMEM, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_INTERRUPT:
		return fault.Unavailable
	case sqlite3.SQLITE_CONSTRAINT:
		switch code {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY,
			sqlite3.SQLITE_CONSTRAINT_ROWID, sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
			return fault.Conflict
		}
		return fault.Invalid
	}
	return fault.Internal
}

// postgresKind classifies an error of pgx by the server's SQLSTATE, or by
// the connection when there is none: a connection that cannot be made (for
// any reason, a refused password too) or broke (class 08, a network error,
// a timeout, a connection the driver already found closed, the server
// shutting down:
// 57P01–57P03, a cancelled statement: 57014), insufficient resources (class
// 53: disk full, out of memory, too many connections) and a transaction
// that must be retried (serialization failure 40001, deadlock 40P01) are
// Unavailable; a unique (23505), foreign key (23503) or exclusion (23P01)
// violation is a Conflict; any other integrity violation (check 23514, not
// null 23502) or data exception (class 22: a value too long, of the wrong
// form) a value that is Invalid. Everything else is Internal.
func postgresKind(err error) fault.Kind {
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) { // whatever the server said, if anything: not connected
		return fault.Unavailable
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && len(pe.Code) == 5 {
		switch pe.Code {
		case "57P01", "57P02", "57P03", "57014", "40001", "40P01":
			return fault.Unavailable
		case "23505", "23503", "23P01":
			return fault.Conflict
		}
		switch pe.Code[:2] {
		case "08", "53":
			return fault.Unavailable
		case "23", "22":
			return fault.Invalid
		}
		return fault.Internal
	}
	var ne net.Error
	if errors.As(err, &ne) || pgconn.Timeout(err) || errors.Is(err, pgconn.ErrConnClosed) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fault.Unavailable
	}
	return fault.Internal
}
