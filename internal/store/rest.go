package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"slices"
	"strings"
	"time"

	"modernc.org/sqlite"

	"studio/internal/changes"
	"studio/internal/query"
)

// This file runs the queries of package query (rest/v1 and realtime/v1) on both engines. A
// query.Query names only columns of the exposed tables (query.Tables, fixed
// at compile time) and carries typed values, which go in as parameters:
// no text of a request becomes SQL. What the engines do differently is
// made the same here: text compares and sorts by bytes (COLLATE "C" in
// PostgreSQL, SQLite's default), nulls sort as PostgreSQL sorts them, the
// key ends every order, like is case-sensitive and ilike folds case by
// Unicode on both.

func init() {
	// SQLite's LIKE folds ASCII letters only; ilike folds as PostgreSQL's
	// ILIKE does in a UTF-8 database.
	sqlite.MustRegisterDeterministicScalarFunction("studio_lower", 1,
		func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
			switch v := args[0].(type) {
			case string:
				return strings.ToLower(v), nil
			case []byte:
				return strings.ToLower(string(v)), nil
			}
			return args[0], nil
		})
}

// Select returns the rows of q and, with q.Count, how many rows match its
// filters. Both come from one snapshot of the database.
func (s *DB) Select(ctx context.Context, q *query.Query) (query.Result, error) {
	var res query.Result
	if err := checkTable(q.Table); err != nil {
		return res, err
	}
	// Through the circuit breaker, with no call deadline: the console's
	// selects may be long.
	err := s.guard(ctx, "select "+q.Table.Name, false, false, func(ctx context.Context) error {
		var err error
		res, err = s.selectRows(ctx, q)
		return err
	})
	return res, err
}

// selectRows is Select once the schema is ready; its errors are marked
// (fail).
func (s *DB) selectRows(ctx context.Context, q *query.Query) (query.Result, error) {
	var res query.Result
	sel := s.selectSQL(q)
	run := func(db queryer) error {
		if q.Count {
			cnt := s.countSQL(q)
			if err := db.QueryRowContext(ctx, s.d.rebind(cnt.String()), cnt.args...).Scan(&res.Total); err != nil {
				return err
			}
		}
		var err error
		res.Rows, err = scanRows(ctx, db, s.d.rebind(sel.String()), sel.args, q.Select)
		return err
	}
	var err error
	if q.Count {
		err = s.inReadTx(ctx, func(tx *sql.Tx) error { return run(tx) })
	} else {
		err = run(s.db)
	}
	if err != nil {
		return query.Result{}, s.fail("select "+q.Table.Name, err)
	}
	return res, nil
}

// Update sets set on the rows of q.Where and returns them as they are
// after it (q.Select columns, in key order); each is published as an
// UPDATE change once committed.
func (s *DB) Update(ctx context.Context, q *query.Query, set []query.Assignment) ([]query.Row, error) {
	if err := checkTable(q.Table); err != nil {
		return nil, err
	}
	if len(set) == 0 {
		return nil, fmt.Errorf("update %s: nothing to set", q.Table.Name)
	}
	var b sqlBuilder
	b.d = s.d
	b.WriteString("UPDATE " + q.Table.Store + " SET ")
	for i, a := range set {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(a.Column.Name + " = ")
		b.param(a.Value)
	}
	if q.Where != nil {
		b.WriteString(" WHERE ")
		b.cond(q.Where)
	}
	keys := keyColumns(q.Table)
	returned := append(slices.Clone(keys), q.Select...)
	b.WriteString(" RETURNING " + columnList(returned))
	var rows []query.Row
	err := s.writeChanges(ctx, "update "+q.Table.Name, func(ctx context.Context, tx *sql.Tx) ([]changes.Change, error) {
		var err error
		if rows, err = scanRows(ctx, tx, s.d.rebind(b.String()), b.args, returned); err != nil {
			return nil, err
		}
		slices.SortFunc(rows, func(a, b query.Row) int { return compareKeys(a[:len(keys)], b[:len(keys)]) })
		made := make([]changes.Change, len(rows))
		for i, r := range rows {
			key := make([]string, len(keys))
			for k := range keys {
				key[k] = r[k].(string)
			}
			made[i] = change(q.Table.Store, changes.Update, key...)
		}
		return made, nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]query.Row, len(rows))
	for i, r := range rows {
		out[i] = r[len(keys):]
	}
	return out, nil
}

// checkTable makes sure t is one of the exposed tables, whose names are
// the only identifiers that reach SQL.
func checkTable(t *query.Table) error {
	if !slices.Contains(query.Tables, t) {
		return fmt.Errorf("rest: %q is not an exposed table", t.Name)
	}
	return nil
}

func keyColumns(t *query.Table) []query.Column {
	out := make([]query.Column, len(t.Key))
	for i, k := range t.Key {
		out[i], _ = t.Column(k)
	}
	return out
}

// compareKeys orders rows by their key values (text) byte by byte.
func compareKeys(a, b query.Row) int {
	for i := range a {
		if c := strings.Compare(a[i].(string), b[i].(string)); c != 0 {
			return c
		}
	}
	return 0
}

func columnList(cols []query.Column) string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}

// queryer is a *sql.DB or a *sql.Tx.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// inReadTx runs f in a transaction that sees one snapshot.
func (s *DB) inReadTx(ctx context.Context, f func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, s.d.readTx)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	return f(tx)
}

// scanRows runs a query and reads each row's cols as query values.
func scanRows(ctx context.Context, db queryer, stmt string, args []any, cols []query.Column) ([]query.Row, error) {
	rows, err := db.QueryContext(ctx, stmt, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []query.Row{}
	dest := make([]any, len(cols))
	for rows.Next() {
		row := make(query.Row, len(cols))
		for i, c := range cols {
			dest[i] = &restValue{typ: c.Type, v: &row[i]}
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		out = append(out, row)
	}
	return out, rows.Err()
}

// restValue scans a column of either engine into nil, string, time.Time or
// bool.
type restValue struct {
	typ query.Type
	v   *any
}

func (r *restValue) Scan(src any) error {
	if src == nil {
		*r.v = nil
		return nil
	}
	switch r.typ {
	case query.Time:
		var t time.Time
		if err := (&timeScanner{&t}).Scan(src); err != nil {
			return err
		}
		*r.v = t
	case query.Bool:
		switch b := src.(type) {
		case bool:
			*r.v = b
		case int64:
			*r.v = b != 0
		default:
			return fmt.Errorf("scan boolean: unexpected %T", src)
		}
	default:
		switch t := src.(type) {
		case string:
			*r.v = t
		case []byte:
			*r.v = string(t)
		default:
			return fmt.Errorf("scan text: unexpected %T", src)
		}
	}
	return nil
}

// sqlBuilder writes a query with ? placeholders and collects its
// arguments.
type sqlBuilder struct {
	strings.Builder
	d    *dialect
	args []any
}

// param writes a placeholder for v.
func (b *sqlBuilder) param(v any) {
	b.WriteByte('?')
	if t, ok := v.(time.Time); ok {
		v = b.d.timeArg(t)
	}
	b.args = append(b.args, v)
}

func (s *DB) selectSQL(q *query.Query) *sqlBuilder {
	b := &sqlBuilder{d: s.d}
	b.WriteString("SELECT " + columnList(q.Select) + " FROM " + q.Table.Store)
	if q.Where != nil {
		b.WriteString(" WHERE ")
		b.cond(q.Where)
	}
	b.WriteString(" ORDER BY ")
	b.order(q)
	if q.Limit >= 0 {
		b.WriteString(" LIMIT ")
		b.param(q.Limit)
	}
	if q.Offset > 0 {
		if q.Limit < 0 && !s.d.postgres {
			b.WriteString(" LIMIT -1") // SQLite has no OFFSET without LIMIT
		}
		b.WriteString(" OFFSET ")
		b.param(q.Offset)
	}
	return b
}

func (s *DB) countSQL(q *query.Query) *sqlBuilder {
	b := &sqlBuilder{d: s.d}
	b.WriteString("SELECT COUNT(*) FROM " + q.Table.Store)
	if q.Where != nil {
		b.WriteString(" WHERE ")
		b.cond(q.Where)
	}
	return b
}

// order writes the sort keys of q and then the table's key columns not
// among them, in the direction of the first sort key: one request always
// gives one order, on both engines.
func (b *sqlBuilder) order(q *query.Query) {
	terms := slices.Clone(q.Order)
	desc := len(terms) > 0 && terms[0].Desc
	for _, k := range keyColumns(q.Table) {
		if !slices.ContainsFunc(terms, func(o query.Order) bool { return o.Column.Name == k.Name }) {
			terms = append(terms, query.Order{Column: k, Desc: desc, NullsFirst: desc})
		}
	}
	for i, o := range terms {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(b.sortable(o.Column))
		if o.Desc {
			b.WriteString(" DESC")
		} else {
			b.WriteString(" ASC")
		}
		// The engines put nulls at opposite ends; say where. A column that
		// cannot be null needs no clause (and SQLite keeps its index).
		if o.Column.Nullable {
			if o.NullsFirst {
				b.WriteString(" NULLS FIRST")
			} else {
				b.WriteString(" NULLS LAST")
			}
		}
	}
}

// sortable is the column as it compares by order: text by bytes.
func (b *sqlBuilder) sortable(c query.Column) string {
	if c.Type == query.Text && b.d.postgres {
		return c.Name + ` COLLATE "C"`
	}
	return c.Name
}

var comparisons = map[string]string{
	query.OpEq: "=", query.OpNeq: "<>", query.OpGt: ">", query.OpGte: ">=", query.OpLt: "<", query.OpLte: "<=",
}

// cond writes the condition c.
func (b *sqlBuilder) cond(c *query.Cond) {
	if c.Not {
		b.WriteString("NOT ")
	}
	b.WriteByte('(')
	defer b.WriteByte(')')
	name := c.Column.Name
	switch c.Op {
	case query.OpAnd, query.OpOr:
		for i, sub := range c.Conds {
			if i > 0 {
				b.WriteString(" " + strings.ToUpper(c.Op) + " ")
			}
			b.cond(sub)
		}
	case query.OpEq, query.OpNeq:
		b.WriteString(name + " " + comparisons[c.Op] + " ")
		b.param(c.Value)
	case query.OpGt, query.OpGte, query.OpLt, query.OpLte:
		b.WriteString(b.sortable(c.Column) + " " + comparisons[c.Op] + " ")
		b.param(c.Value)
	case query.OpLike, query.OpILike:
		b.like(c)
	case query.OpIs:
		switch v := c.Value.(query.IsValue); {
		case v == query.IsNull || v == query.IsUnknown:
			b.WriteString(name + " IS NULL")
		case !c.Column.Nullable:
			// The same as IS TRUE/FALSE on a column that cannot be null, and
			// an index on the column serves it.
			b.WriteString(name + " = ")
			b.param(v == query.IsTrue)
		default:
			b.WriteString(name + map[query.IsValue]string{query.IsTrue: " IS TRUE", query.IsFalse: " IS FALSE"}[v])
		}
	case query.OpIn:
		values := c.Value.([]any)
		if len(values) == 0 {
			b.WriteString("1 = 0")
			return
		}
		b.WriteString(name + " IN (")
		for i, v := range values {
			if i > 0 {
				b.WriteString(", ")
			}
			b.param(v)
		}
		b.WriteByte(')')
	default:
		panic("rest: unknown operator " + c.Op) // the parser makes only the operators above
	}
}

// like writes like or ilike: LIKE/ILIKE in PostgreSQL; in SQLite GLOB,
// which is case-sensitive, on lower-cased text for ilike.
func (b *sqlBuilder) like(c *query.Cond) {
	p := c.Value.(query.Pattern)
	fold := c.Op == query.OpILike
	var pat strings.Builder
	for _, part := range p {
		switch {
		case part.Any && b.d.postgres:
			pat.WriteByte('%')
		case part.Any:
			pat.WriteByte('*')
		case part.One && b.d.postgres:
			pat.WriteByte('_')
		case part.One:
			pat.WriteByte('?')
		case b.d.postgres:
			pat.WriteString(strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(part.Literal))
		default:
			lit := part.Literal
			if fold {
				lit = strings.ToLower(lit)
			}
			pat.WriteString(strings.NewReplacer(`[`, `[[]`, `*`, `[*]`, `?`, `[?]`).Replace(lit))
		}
	}
	switch {
	case b.d.postgres && fold:
		b.WriteString(c.Column.Name + ` ILIKE `)
	case b.d.postgres:
		b.WriteString(c.Column.Name + ` LIKE `)
	case fold:
		b.WriteString("studio_lower(" + c.Column.Name + ") GLOB ")
	default:
		b.WriteString(c.Column.Name + " GLOB ")
	}
	b.param(pat.String())
	if b.d.postgres {
		b.WriteString(` ESCAPE '\'`)
	}
}
