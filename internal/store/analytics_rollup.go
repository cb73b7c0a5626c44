package store

import (
	"context"
	"database/sql"
	"time"
)

// The rollups of what the public site did: each complete UTC day, once, its
// hours (analytics_hours) and its counts per value of each dimension
// (analytics_days), kept for years after its raw rows are pruned. A summary
// reads them for the days before rolled_through (analytics_summary.go).

const daySeconds = 24 * 60 * 60

// floorDay is the start of the UTC day of t, in Unix seconds.
func floorDay(t int64) int64 { return t - ((t%daySeconds)+daySeconds)%daySeconds }

// rollupState is analytics_rollup_state: the days before rolledThrough are
// rolled up, the raw rows before rawFrom are deleted.
type rollupState struct{ rolledThrough, rawFrom int64 }

func (s *DB) analyticsRollupState(ctx context.Context) (rollupState, error) {
	var st rollupState
	err := s.query(ctx, "analytics rollup state", `SELECT rolled_through, raw_from FROM analytics_rollup_state WHERE id = 'state'`, nil,
		func(rows *sql.Rows) error { return rows.Scan(&st.rolledThrough, &st.rawFrom) })
	return st, err
}

// RollUpAnalytics rolls up every UTC day that ended by before and is not
// rolled up yet, a day per transaction. Instances sharing the store may run
// it at once: each day is rolled up by one of them.
func (s *DB) RollUpAnalytics(ctx context.Context, before time.Time) error {
	end := floorDay(before.Unix())
	for {
		st, err := s.analyticsRollupState(ctx)
		if err != nil || st.rolledThrough >= end {
			return err
		}
		day := st.rolledThrough
		if day == 0 {
			if day, err = s.firstAnalyticsDay(ctx, end); err != nil {
				return err
			}
		}
		if err := s.write(ctx, "roll up analytics", func(ctx context.Context, tx *sql.Tx) error {
			return s.rollUpDay(ctx, tx, st.rolledThrough, day, day < end)
		}); err != nil {
			return err
		}
	}
}

// firstAnalyticsDay is the first day with raw rows, or end when there are none.
func (s *DB) firstAnalyticsDay(ctx context.Context, end int64) (int64, error) {
	var first sql.NullInt64
	err := s.query(ctx, "first analytics day", `SELECT MIN(t) FROM (SELECT MIN(started_at) AS t FROM analytics_visits
		UNION ALL SELECT MIN(at) FROM analytics_views UNION ALL SELECT MIN(at) FROM analytics_conversions) firsts`, nil,
		func(rows *sql.Rows) error { return rows.Scan(&first) })
	if err != nil || !first.Valid {
		return end, err
	}
	return min(floorDay(first.Int64), end), nil
}

// rollUpDay writes the rollups of day in tx (when roll; else it only moves
// the state to day) and moves the state past it, when the state still says
// was: another instance may have just done it.
func (s *DB) rollUpDay(ctx context.Context, tx *sql.Tx, was, day int64, roll bool) error {
	// The update takes the state's row lock (PostgreSQL) or the write lock
	// (SQLite) before the state is read again.
	if _, err := tx.ExecContext(ctx, `UPDATE analytics_rollup_state SET rolled_through = rolled_through WHERE id = 'state'`); err != nil {
		return err
	}
	var now int64
	if err := tx.QueryRowContext(ctx, `SELECT rolled_through FROM analytics_rollup_state WHERE id = 'state'`).Scan(&now); err != nil {
		return err
	}
	if now != was {
		return nil
	}
	next := day
	if roll {
		if err := s.rollUp(ctx, tx, day); err != nil {
			return err
		}
		next = day + daySeconds
	}
	_, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE analytics_rollup_state SET rolled_through = ? WHERE id = 'state'`), next)
	return err
}

// rollUp writes the hours and the counts of day.
func (s *DB) rollUp(ctx context.Context, tx *sql.Tx, day int64) error {
	end := day + daySeconds
	visits := ` FROM analytics_visits v WHERE v.started_at >= ? AND v.started_at < ?`
	visitRow := `COUNT(DISTINCT v.visitor), COUNT(*), SUM(v.views), SUM(CASE WHEN v.views = 1 THEN 1 ELSE 0 END), SUM(v.last_at - v.started_at), 0`
	insertDays := `INSERT INTO analytics_days (dimension, day, value, visitors, visits, views, bounces, duration, conversions) `
	statements := []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO analytics_hours (hour, views, visitors) SELECT (w.at / 3600) * 3600, COUNT(*), COUNT(DISTINCT v.visitor)
			FROM analytics_views w JOIN analytics_visits v ON v.id = w.visit_id WHERE w.at >= ? AND w.at < ? GROUP BY 1`, []any{day, end}},
		{insertDays + `SELECT '', CAST(? AS BIGINT), '', COUNT(DISTINCT v.visitor), COUNT(*),
			(SELECT COUNT(*) FROM analytics_views WHERE at >= ? AND at < ?),
			COALESCE(SUM(CASE WHEN v.views = 1 THEN 1 ELSE 0 END), 0), COALESCE(SUM(v.last_at - v.started_at), 0),
			(SELECT COUNT(*) FROM analytics_conversions WHERE at >= ? AND at < ?)` + visits,
			[]any{day, day, end, day, end, day, end}},
		{insertDays + `SELECT 'page', CAST(? AS BIGINT), w.path, COUNT(DISTINCT v.visitor), 0, COUNT(*), 0, 0, 0
			FROM analytics_views w JOIN analytics_visits v ON v.id = w.visit_id WHERE w.at >= ? AND w.at < ? GROUP BY w.path`, []any{day, day, end}},
		{insertDays + `SELECT 'campaign', CAST(? AS BIGINT), v.utm_source || CAST(? AS TEXT) || v.utm_medium || CAST(? AS TEXT) || v.utm_campaign, ` + visitRow + visits +
			` AND (v.utm_source <> '' OR v.utm_medium <> '' OR v.utm_campaign <> '') GROUP BY v.utm_source, v.utm_medium, v.utm_campaign`,
			[]any{day, "\t", "\t", day, end}},
		{insertDays + `SELECT 'goal', CAST(? AS BIGINT), c.goal, COUNT(DISTINCT c.visitor), 0, 0, 0, 0, COUNT(*)
			FROM analytics_conversions c WHERE c.at >= ? AND c.at < ? GROUP BY c.goal`, []any{day, day, end}},
		{insertDays + `SELECT 'goal', CAST(? AS BIGINT), '', COUNT(DISTINCT c.visitor), 0, 0, 0, 0, COUNT(*)
			FROM analytics_conversions c WHERE c.at >= ? AND c.at < ? HAVING COUNT(*) > 0`, []any{day, day, end}},
	}
	for _, d := range visitDimensions {
		where := ""
		if d.dimension != "source" && d.dimension != "entry_page" && d.dimension != "exit_page" {
			where = ` AND v.` + d.column + ` <> ''`
		}
		statements = append(statements, struct {
			sql  string
			args []any
		}{insertDays + `SELECT '` + d.dimension + `', CAST(? AS BIGINT), v.` + d.column + `, ` + visitRow + visits + where + ` GROUP BY v.` + d.column, []any{day, day, end}})
	}
	for _, st := range statements {
		if _, err := tx.ExecContext(ctx, s.d.rebind(st.sql), st.args...); err != nil {
			return err
		}
	}
	return nil
}

// visitDimensions are the dimensions of a visit: its column in
// analytics_visits, and its name in analytics_days.
var visitDimensions = []struct{ dimension, column string }{
	{"entry_page", "entry_path"},
	{"exit_page", "exit_path"},
	{"source", "source"},
	{"browser", "browser"},
	{"os", "os"},
	{"device", "device"},
	{"country", "country"},
}
