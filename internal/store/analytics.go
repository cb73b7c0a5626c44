package store

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"time"

	"studio/internal/analytics"
	"studio/internal/changes"
)

// What the public site did (package analytics): the day's salt, the views
// joined into visits, the conversions and the tallies of what was not
// counted. Times are Unix seconds.

// visitGap is the longest pause within one visit.
const visitGap = 30 * 60

// DailySalt returns the salt of day, storing candidate when there is none:
// every instance of the store hashes a day's visitors with the same salt.
func (s *DB) DailySalt(ctx context.Context, day string, candidate []byte) ([]byte, error) {
	var salt []byte
	err := s.write(ctx, "analytics salt", func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO analytics_salts (day, salt) VALUES (?, ?)
			ON CONFLICT (day) DO NOTHING`), day, candidate); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, s.d.rebind(`SELECT salt FROM analytics_salts WHERE day = ?`), day).Scan(&salt)
	})
	return salt, err
}

// openVisit is a visit a batch's views join.
type openVisit struct {
	id, last int64
	exit     string
	added    int64 // views the batch added
	touched  bool  // changed by the batch after its first view
}

// WriteAnalytics writes b in one transaction: each view joins its visitor's
// visit when the visitor's last view was at most 30 minutes before, or
// starts a visit; each conversion joins the visit it was reached in.
func (s *DB) WriteAnalytics(ctx context.Context, b analytics.Batch) error {
	views := slices.Clone(b.Views)
	slices.SortStableFunc(views, func(x, y analytics.View) int { return x.At.Compare(y.At) })
	return s.writeChanges(ctx, "write analytics", func(ctx context.Context, tx *sql.Tx) ([]changes.Change, error) {
		if err := s.writeAnalytics(ctx, tx, views, b); err != nil {
			return nil, err
		}
		if _, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO analytics_live (id, updated_at) VALUES ('now', ?)
			ON CONFLICT (id) DO UPDATE SET updated_at = excluded.updated_at`), s.d.timeArg(b.At)); err != nil {
			return nil, err
		}
		return []changes.Change{change("analytics_live", changes.Update, "now")}, nil
	})
}

// writeAnalytics writes the views (in time order), conversions and tallies
// of b in tx.
func (s *DB) writeAnalytics(ctx context.Context, tx *sql.Tx, views []analytics.View, b analytics.Batch) error {
	open := map[string]*openVisit{}
	var changed []*openVisit
	visitOf := func(visitor string, at int64) (*openVisit, error) {
		if v, ok := open[visitor]; ok && v != nil && at-v.last <= visitGap {
			return v, nil
		}
		v := &openVisit{}
		err := tx.QueryRowContext(ctx, s.d.rebind(`SELECT id, last_at, exit_path FROM analytics_visits
			WHERE visitor = ? AND last_at >= ? ORDER BY last_at DESC LIMIT 1`), visitor, at-visitGap).
			Scan(&v.id, &v.last, &v.exit)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, nil
		}
		return v, err
	}
	addView, err := tx.PrepareContext(ctx, s.d.rebind(`INSERT INTO analytics_views (visit_id, at, path) VALUES (?, ?, ?)`))
	if err != nil {
		return err
	}
	defer addView.Close()
	for _, view := range views {
		at := view.At.Unix()
		v, err := visitOf(view.Visitor, at)
		if err != nil {
			return err
		}
		if v == nil {
			v = &openVisit{last: at, exit: view.Path}
			err = tx.QueryRowContext(ctx, s.d.rebind(`INSERT INTO analytics_visits
				(visitor, started_at, last_at, entry_path, exit_path, views, source, utm_source, utm_medium, utm_campaign, browser, os, device, country)
				VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
				view.Visitor, at, at, view.Path, view.Path, view.Source, view.Campaign.Source, view.Campaign.Medium, view.Campaign.Name,
				view.Browser, view.OS, view.Device, view.Country).Scan(&v.id)
			if err != nil {
				return err
			}
		} else {
			if !v.touched {
				changed = append(changed, v)
			}
			v.last, v.exit, v.added, v.touched = at, view.Path, v.added+1, true
		}
		open[view.Visitor] = v
		if _, err := addView.ExecContext(ctx, v.id, at, view.Path); err != nil {
			return err
		}
	}
	for _, v := range changed {
		if _, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE analytics_visits SET last_at = ?, exit_path = ?, views = views + ?
			WHERE id = ?`), v.last, v.exit, v.added, v.id); err != nil {
			return err
		}
	}
	for _, c := range b.Conversions {
		at := c.At.Unix()
		v, err := visitOf(c.Visitor, at)
		if err != nil {
			return err
		}
		var visit any
		if v != nil {
			visit = v.id
		}
		if _, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO analytics_conversions (visit_id, visitor, at, goal) VALUES (?, ?, ?, ?)`),
			visit, c.Visitor, at, string(c.Goal)); err != nil {
			return err
		}
	}
	for k, n := range b.NotCounted {
		if _, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO analytics_not_counted (day, reason, count) VALUES (?, ?, ?)
			ON CONFLICT (day, reason) DO UPDATE SET count = analytics_not_counted.count + excluded.count`),
			k.Day, string(k.Reason), n); err != nil {
			return err
		}
	}
	return nil
}

// PruneAnalytics deletes the views, visits and conversions of the days
// before rawBefore's that are rolled up (RollUpAnalytics), and the salts of
// the days before saltsFrom.
func (s *DB) PruneAnalytics(ctx context.Context, rawBefore time.Time, saltsFrom string) error {
	return s.write(ctx, "prune analytics", func(ctx context.Context, tx *sql.Tx) error {
		st, err := s.lockedRollupState(ctx, tx) // a roll-up waits: no day is pruned while rolled up
		if err != nil {
			return err
		}
		before := min(floorDay(rawBefore.Unix()), st.rolledThrough)
		for _, q := range []struct {
			sql  string
			args []any
		}{
			{`DELETE FROM analytics_views WHERE at < ?`, []any{before}},
			{`DELETE FROM analytics_visits WHERE last_at < ?`, []any{before}},
			{`DELETE FROM analytics_conversions WHERE at < ?`, []any{before}},
			{`DELETE FROM analytics_salts WHERE day < ?`, []any{saltsFrom}},
			{`UPDATE analytics_rollup_state SET raw_from = ? WHERE id = 'state' AND raw_from < ?`, []any{before, before}},
		} {
			if _, err := tx.ExecContext(ctx, s.d.rebind(q.sql), q.args...); err != nil {
				return err
			}
		}
		return nil
	})
}
