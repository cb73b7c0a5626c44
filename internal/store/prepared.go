package store

import (
	"context"
	"database/sql"
)

// queryPrepared is query for the hottest reads (every request with a staff
// access token makes one): on SQLite the statement is prepared once and
// kept, as parsing the SQL costs more than running it; PostgreSQL's driver
// (pgx) already keeps prepared statements per connection. A point read, it
// has the call deadline (guard).
func (s *DB) queryPrepared(ctx context.Context, op, q string, args []any, f func(*sql.Rows) error) error {
	return s.guard(ctx, op, false, true, func(ctx context.Context) error {
		if s.d.postgres {
			rows, err := s.db.QueryContext(ctx, s.d.rebind(q), args...)
			return s.eachRow(op, rows, err, f)
		}
		stmt, err := s.prepared(ctx, q)
		if err != nil {
			return s.fail(op, err)
		}
		rows, err := stmt.QueryContext(ctx, args...)
		return s.eachRow(op, rows, err, f)
	})
}

// txQuery is query in tx, with the kept statement of q if there is one
// (keepPrepared).
func (s *DB) txQuery(ctx context.Context, tx *sql.Tx, q string, args []any, f func(*sql.Rows) error) error {
	var rows *sql.Rows
	var err error
	if st, ok := s.stmts.Load(q); ok {
		rows, err = tx.StmtContext(ctx, st.(*sql.Stmt)).QueryContext(ctx, args...)
	} else {
		rows, err = tx.QueryContext(ctx, s.d.rebind(q), args...)
	}
	return s.eachRow("query", rows, err, f)
}

// txExec is tx.ExecContext, with the kept statement of q if there is one
// (keepPrepared).
func (s *DB) txExec(ctx context.Context, tx *sql.Tx, q string, args ...any) (sql.Result, error) {
	if st, ok := s.stmts.Load(q); ok {
		return tx.StmtContext(ctx, st.(*sql.Stmt)).ExecContext(ctx, args...)
	}
	return tx.ExecContext(ctx, s.d.rebind(q), args...)
}

// keepPrepared prepares queries once, on SQLite, for txQuery and txExec;
// outside a transaction, as SQLite's one connection is the transaction's
// inside one. A query that fails to prepare runs unprepared.
func (s *DB) keepPrepared(ctx context.Context, queries ...string) {
	if s.d.postgres || s.ready(ctx) != nil {
		return
	}
	for _, q := range queries {
		_, _ = s.prepared(ctx, q)
	}
}

// prepared returns the statement of q, preparing it on first use.
func (s *DB) prepared(ctx context.Context, q string) (*sql.Stmt, error) {
	if st, ok := s.stmts.Load(q); ok {
		return st.(*sql.Stmt), nil
	}
	st, err := s.db.PrepareContext(ctx, s.d.rebind(q))
	if err != nil {
		return nil, err
	}
	if prev, loaded := s.stmts.LoadOrStore(q, st); loaded {
		st.Close()
		return prev.(*sql.Stmt), nil
	}
	return st, nil
}
