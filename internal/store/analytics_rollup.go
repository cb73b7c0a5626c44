package store

import (
	"context"
	"database/sql"
	"time"
)

// The rollups of what the public site did: each UTC day, its hours
// (analytics_hours) and its counts per value of each dimension
// (analytics_days), kept for years after its raw rows are pruned. A day is
// rolled up for good once it is over; today is rolled up every few minutes
// until a minute ago (provisional), so that a summary reads raw rows for
// minutes at most (analytics_summary.go). Counting a day reads the raw rows
// outside any write; writing its rollups is a short transaction.

const daySeconds = 24 * 60 * 60

// settled is how long after its request a view may still be written: a
// flush every second, and a refused batch tried again at a few more.
const settled = 5 * time.Minute

// floorDay is the start of the UTC day of t, in Unix seconds.
func floorDay(t int64) int64 { return t - ((t%daySeconds)+daySeconds)%daySeconds }

// rollupState is analytics_rollup_state: the days before rolledThrough are
// rolled up for good, the day of provisionalThrough until then, and the raw
// rows before rawFrom are deleted.
type rollupState struct{ rolledThrough, provisionalThrough, rawFrom int64 }

// cut is where the rollups end and a summary's raw rows begin.
func (st rollupState) cut() int64 { return max(st.rolledThrough, st.provisionalThrough) }

const rollupStateColumns = `SELECT rolled_through, provisional_through, raw_from FROM analytics_rollup_state WHERE id = 'state'`

func (st *rollupState) scan(row interface{ Scan(...any) error }) error {
	return row.Scan(&st.rolledThrough, &st.provisionalThrough, &st.rawFrom)
}

func (s *DB) analyticsRollupState(ctx context.Context) (rollupState, error) {
	var st rollupState
	err := s.query(ctx, "analytics rollup state", rollupStateColumns, nil, func(rows *sql.Rows) error { return st.scan(rows) })
	return st, err
}

// lockedRollupState reads the state in tx once it holds the state's row
// lock (PostgreSQL) or the write lock (SQLite): instances sharing the store
// take turns.
func (s *DB) lockedRollupState(ctx context.Context, tx *sql.Tx) (rollupState, error) {
	var st rollupState
	if _, err := tx.ExecContext(ctx, `UPDATE analytics_rollup_state SET rolled_through = rolled_through WHERE id = 'state'`); err != nil {
		return st, err
	}
	return st, st.scan(tx.QueryRowContext(ctx, rollupStateColumns))
}

// RollUpAnalytics rolls up for good every UTC day over (by a few minutes)
// at now and not rolled up yet, a day at a time, then today until a minute
// before now. Instances sharing the store may run it at once.
func (s *DB) RollUpAnalytics(ctx context.Context, now time.Time) error {
	over := floorDay(now.Add(-settled).Unix())
	for {
		st, err := s.analyticsRollupState(ctx)
		if err != nil {
			return err
		}
		if st.rolledThrough >= over {
			break
		}
		day := st.rolledThrough
		if day == 0 {
			if day, err = s.firstAnalyticsDay(ctx, over); err != nil {
				return err
			}
		}
		var r rollup
		if day < over {
			if r, err = s.countDay(ctx, day, day+daySeconds); err != nil {
				return err
			}
		}
		if err := s.write(ctx, "roll up analytics", func(ctx context.Context, tx *sql.Tx) error {
			locked, err := s.lockedRollupState(ctx, tx)
			if err != nil || locked.rolledThrough != st.rolledThrough {
				return err // done by another instance meanwhile
			}
			next := day // no raw rows before: the state moves on
			if day < over {
				if err := s.writeRollup(ctx, tx, r); err != nil {
					return err
				}
				next = day + daySeconds
				if month := monthOf(day); next == nextMonth(month) {
					if err := s.writeMonth(ctx, tx, month); err != nil {
						return err
					}
				}
			}
			_, err = tx.ExecContext(ctx, s.d.rebind(`UPDATE analytics_rollup_state SET rolled_through = ? WHERE id = 'state'`), next)
			return err
		}); err != nil {
			return err
		}
	}
	if err := s.rollUpMissingMonths(ctx); err != nil {
		return err
	}
	return s.rollUpToday(ctx, now)
}

// monthOf is the start of the UTC month of t; nextMonth that of the next.
func monthOf(t int64) int64 {
	y, m, _ := time.Unix(t, 0).UTC().Date()
	return time.Date(y, m, 1, 0, 0, 0, 0, time.UTC).Unix()
}

func nextMonth(month int64) int64 { return time.Unix(month, 0).UTC().AddDate(0, 1, 0).Unix() }

// writeMonth replaces in tx the rows of month by the sums of its days.
func (s *DB) writeMonth(ctx context.Context, tx *sql.Tx, month int64) error {
	for _, d := range rollupDimensions {
		if _, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM analytics_months WHERE dimension = ? AND month = ?`), d, month); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO analytics_months
			(dimension, month, value, visitors, visits, views, bounces, duration, conversions)
			SELECT dimension, CAST(? AS BIGINT), value, SUM(visitors), SUM(visits), SUM(views), SUM(bounces), SUM(duration), SUM(conversions)
			FROM analytics_days WHERE dimension = ? AND day >= ? AND day < ? GROUP BY dimension, value`),
			month, d, month, nextMonth(month)); err != nil {
			return err
		}
	}
	return nil
}

// rollUpMissingMonths writes the months over whose days are rolled up but
// that have no rows of their own (days rolled up by an older release, or
// restored from elsewhere).
func (s *DB) rollUpMissingMonths(ctx context.Context) error {
	st, err := s.analyticsRollupState(ctx)
	if err != nil {
		return err
	}
	have := map[int64]bool{}
	if err := s.query(ctx, "analytics months", `SELECT month FROM analytics_months WHERE dimension = ''`, nil, func(rows *sql.Rows) error {
		var m int64
		err := rows.Scan(&m)
		have[m] = true
		return err
	}); err != nil {
		return err
	}
	var missing []int64
	if err := s.query(ctx, "analytics days", `SELECT day FROM analytics_days WHERE dimension = '' AND day < ?`, []any{st.rolledThrough},
		func(rows *sql.Rows) error {
			var day int64
			err := rows.Scan(&day)
			if m := monthOf(day); !have[m] && nextMonth(m) <= st.rolledThrough {
				have[m] = true
				missing = append(missing, m)
			}
			return err
		}); err != nil {
		return err
	}
	for _, m := range missing {
		if err := s.write(ctx, "roll up an analytics month", func(ctx context.Context, tx *sql.Tx) error {
			return s.writeMonth(ctx, tx, m)
		}); err != nil {
			return err
		}
	}
	return nil
}

// rollUpToday rolls up today until a minute before now, provisionally, once
// the days before are rolled up for good.
func (s *DB) rollUpToday(ctx context.Context, now time.Time) error {
	until := now.Truncate(time.Minute).Add(-time.Minute).Unix()
	day := floorDay(until)
	st, err := s.analyticsRollupState(ctx)
	if err != nil || st.rolledThrough != day || st.provisionalThrough >= until {
		return err
	}
	r, err := s.countDay(ctx, day, until)
	if err != nil {
		return err
	}
	return s.write(ctx, "roll up analytics today", func(ctx context.Context, tx *sql.Tx) error {
		locked, err := s.lockedRollupState(ctx, tx)
		if err != nil || locked.rolledThrough != day || locked.provisionalThrough >= until {
			return err
		}
		if err := s.writeRollup(ctx, tx, r); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, s.d.rebind(`UPDATE analytics_rollup_state SET provisional_through = ? WHERE id = 'state'`), until)
		return err
	})
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

// rollup is what a day rolls up to (until some time, for today).
type rollup struct {
	day   int64
	hours []hourRow
	rows  []dayRow
}

type hourRow struct{ hour, views, visitors int64 }

// dayRow is a value of a dimension on a day; dimension "" (value "") is
// the day's totals, "goal" "" any goal.
type dayRow struct {
	dimension, value                                        string
	visitors, visits, views, bounces, duration, conversions int64
}

// rollupDimensions are the dimensions of analytics_days.
var rollupDimensions = []string{"", "page", "entry_page", "exit_page", "source", "campaign", "browser", "os", "device", "country", "goal"}

// campaignValue is a visit's campaign as one value: its utm_source,
// utm_medium and utm_campaign joined by tabs (request values hold no
// control characters).
const campaignValue = "v.utm_source || '\t' || v.utm_medium || '\t' || v.utm_campaign"

// visitDimensions are the dimensions of a visit v: their names in
// analytics_days, and their values.
var visitDimensions = []struct{ dimension, value string }{
	{"entry_page", "v.entry_path"},
	{"exit_page", "v.exit_path"},
	{"source", "v.source"},
	{"campaign", campaignValue},
	{"browser", "v.browser"},
	{"os", "v.os"},
	{"device", "v.device"},
	{"country", "v.country"},
}

// visitValue is the value of dimension in visitDimensions.
func visitValue(dimension string) string {
	for _, d := range visitDimensions {
		if d.dimension == dimension {
			return d.value
		}
	}
	panic("no visit dimension " + dimension)
}

// skipsEmpty reports whether a dimension's list leaves out visits without
// a value (no campaign, an unknown browser…): direct visits are a source,
// and every visit has an entry and an exit page.
func skipsEmpty(dimension string) bool {
	return dimension != "source" && dimension != "entry_page" && dimension != "exit_page" && dimension != "page"
}

// emptyCondition keeps the visits with a value of dimension.
func emptyCondition(dimension string) string {
	if dimension == "campaign" {
		return ` AND (v.utm_source <> '' OR v.utm_medium <> '' OR v.utm_campaign <> '')`
	}
	return ` AND ` + visitValue(dimension) + ` <> ''`
}

// countDay reads from the raw rows what the day rolls up to, from day to end.
func (s *DB) countDay(ctx context.Context, day, end int64) (rollup, error) {
	r := rollup{day: day}
	period := []any{day, end}
	err := s.query(ctx, "analytics count hours", `SELECT (w.at / 3600) * 3600, COUNT(*), COUNT(DISTINCT v.visitor)
		FROM analytics_views w JOIN analytics_visits v ON v.id = w.visit_id WHERE w.at >= ? AND w.at < ? GROUP BY 1`, period,
		func(rows *sql.Rows) error {
			var h hourRow
			err := rows.Scan(&h.hour, &h.views, &h.visitors)
			r.hours = append(r.hours, h)
			return err
		})
	if err != nil {
		return r, err
	}
	read := func(dimension, q string, args []any) error {
		return s.query(ctx, "analytics count "+dimension, q, args, func(rows *sql.Rows) error {
			d := dayRow{dimension: dimension}
			err := rows.Scan(&d.value, &d.visitors, &d.visits, &d.views, &d.bounces, &d.duration, &d.conversions)
			r.rows = append(r.rows, d)
			return err
		})
	}
	visits := ` FROM analytics_visits v WHERE v.started_at >= ? AND v.started_at < ?`
	visitRow := `COUNT(DISTINCT v.visitor), COUNT(*), SUM(v.views), SUM(CASE WHEN v.views = 1 THEN 1 ELSE 0 END), SUM(v.last_at - v.started_at), 0`
	steps := []struct {
		dimension, sql string
		args           []any
	}{
		{"", `SELECT '', COUNT(DISTINCT v.visitor), COUNT(*), (SELECT COUNT(*) FROM analytics_views WHERE at >= ? AND at < ?),
			COALESCE(SUM(CASE WHEN v.views = 1 THEN 1 ELSE 0 END), 0), COALESCE(SUM(v.last_at - v.started_at), 0),
			(SELECT COUNT(*) FROM analytics_conversions WHERE at >= ? AND at < ?)` + visits, []any{day, end, day, end, day, end}},
		{"page", `SELECT w.path, COUNT(DISTINCT v.visitor), 0, COUNT(*), 0, 0, 0
			FROM analytics_views w JOIN analytics_visits v ON v.id = w.visit_id WHERE w.at >= ? AND w.at < ? GROUP BY w.path`, period},
		{"goal", `SELECT c.goal, COUNT(DISTINCT c.visitor), 0, 0, 0, 0, COUNT(*)
			FROM analytics_conversions c WHERE c.at >= ? AND c.at < ? GROUP BY c.goal
			UNION ALL SELECT '', COUNT(DISTINCT c.visitor), 0, 0, 0, 0, COUNT(*) FROM analytics_conversions c WHERE c.at >= ? AND c.at < ?`,
			[]any{day, end, day, end}},
	}
	for _, d := range visitDimensions {
		where := ""
		if skipsEmpty(d.dimension) {
			where = emptyCondition(d.dimension)
		}
		steps = append(steps, struct {
			dimension, sql string
			args           []any
		}{d.dimension, `SELECT ` + d.value + `, ` + visitRow + visits + where + ` GROUP BY 1`, period})
	}
	for _, st := range steps {
		if err := read(st.dimension, st.sql, st.args); err != nil {
			return r, err
		}
	}
	return r, nil
}

// writeRollup replaces in tx what r's day rolled up to before.
func (s *DB) writeRollup(ctx context.Context, tx *sql.Tx, r rollup) error {
	if _, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM analytics_hours WHERE hour >= ? AND hour < ?`), r.day, r.day+daySeconds); err != nil {
		return err
	}
	for _, d := range rollupDimensions {
		if _, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM analytics_days WHERE dimension = ? AND day = ?`), d, r.day); err != nil {
			return err
		}
	}
	hour, err := tx.PrepareContext(ctx, s.d.rebind(`INSERT INTO analytics_hours (hour, views, visitors) VALUES (?, ?, ?)`))
	if err != nil {
		return err
	}
	defer hour.Close()
	for _, h := range r.hours {
		if _, err := hour.ExecContext(ctx, h.hour, h.views, h.visitors); err != nil {
			return err
		}
	}
	row, err := tx.PrepareContext(ctx, s.d.rebind(`INSERT INTO analytics_days
		(dimension, day, value, visitors, visits, views, bounces, duration, conversions) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`))
	if err != nil {
		return err
	}
	defer row.Close()
	for _, d := range r.rows {
		if d.dimension == "goal" && d.value == "" && d.conversions == 0 {
			continue
		}
		if _, err := row.ExecContext(ctx, d.dimension, r.day, d.value, d.visitors, d.visits, d.views, d.bounces, d.duration, d.conversions); err != nil {
			return err
		}
	}
	return nil
}
