package store

import (
	"context"
	"database/sql"
	"strconv"
	"time"

	"studio/internal/analytics"
)

// topLimit is how many rows each list of a summary holds.
const topLimit = 100

// AnalyticsSummary is what the site did from since until until.
func (s *DB) AnalyticsSummary(ctx context.Context, since, until time.Time) (analytics.Summary, error) {
	// Empty lists are [] in JSON, never null.
	sum := analytics.Summary{Since: since.UTC(), Until: until.UTC(), Pages: []analytics.PageCount{}, EntryPages: []analytics.PageCount{},
		ExitPages: []analytics.PageCount{}, Sources: []analytics.SourceCount{}, Campaigns: []analytics.CampaignRow{},
		Browsers: []analytics.Count{}, OSes: []analytics.Count{}, Devices: []analytics.Count{}, Countries: []analytics.Count{}}
	from, to := since.Unix(), until.Unix()
	span := []any{from, to}
	visits := `FROM analytics_visits WHERE started_at >= ? AND started_at < ?`

	var duration sql.NullFloat64
	var bounces sql.NullInt64
	err := s.query(ctx, "analytics summary", `SELECT COUNT(DISTINCT visitor), COUNT(*),
		SUM(CASE WHEN views = 1 THEN 1 ELSE 0 END), AVG(last_at - started_at) `+visits, span, func(rows *sql.Rows) error {
		return rows.Scan(&sum.Visitors, &sum.Visits, &bounces, &duration)
	})
	if err != nil {
		return sum, err
	}
	if err := s.query(ctx, "analytics views", `SELECT COUNT(*) FROM analytics_views WHERE at >= ? AND at < ?`, span,
		func(rows *sql.Rows) error { return rows.Scan(&sum.Views) }); err != nil {
		return sum, err
	}
	if sum.Visits > 0 {
		sum.ViewsPerVisit = round(float64(sum.Views) / float64(sum.Visits))
		sum.BounceRate = round(float64(bounces.Int64) / float64(sum.Visits))
		sum.VisitDuration = round(duration.Float64)
	}

	pages := func(op, q string, into *[]analytics.PageCount) error {
		return s.query(ctx, op, q, span, func(rows *sql.Rows) error {
			var p analytics.PageCount
			err := rows.Scan(&p.Path, &p.Views, &p.Visitors)
			*into = append(*into, p)
			return err
		})
	}
	counts := func(op, column string, into *[]analytics.Count) error {
		return s.query(ctx, op, `SELECT `+column+`, COUNT(DISTINCT visitor) `+visits+` AND `+column+` <> ''
			GROUP BY `+column+` ORDER BY 2 DESC, 1 LIMIT `+strconv.Itoa(topLimit), span, func(rows *sql.Rows) error {
			var c analytics.Count
			err := rows.Scan(&c.Value, &c.Visitors)
			*into = append(*into, c)
			return err
		})
	}
	steps := []func() error{
		func() error {
			return pages("analytics pages", `SELECT w.path, COUNT(*), COUNT(DISTINCT v.visitor)
				FROM analytics_views w JOIN analytics_visits v ON v.id = w.visit_id
				WHERE w.at >= ? AND w.at < ? GROUP BY w.path ORDER BY 2 DESC, 1 LIMIT `+strconv.Itoa(topLimit), &sum.Pages)
		},
		func() error {
			return pages("analytics entry pages", `SELECT entry_path, COUNT(*), COUNT(DISTINCT visitor) `+visits+`
				GROUP BY entry_path ORDER BY 2 DESC, 1 LIMIT `+strconv.Itoa(topLimit), &sum.EntryPages)
		},
		func() error {
			return pages("analytics exit pages", `SELECT exit_path, COUNT(*), COUNT(DISTINCT visitor) `+visits+`
				GROUP BY exit_path ORDER BY 2 DESC, 1 LIMIT `+strconv.Itoa(topLimit), &sum.ExitPages)
		},
		func() error {
			return s.query(ctx, "analytics sources", `SELECT source, COUNT(DISTINCT visitor) `+visits+`
				GROUP BY source ORDER BY 2 DESC, 1 LIMIT `+strconv.Itoa(topLimit), span, func(rows *sql.Rows) error {
				var c analytics.SourceCount
				err := rows.Scan(&c.Source, &c.Visitors)
				if c.Source == "" {
					c.Source = analytics.Direct
				}
				sum.Sources = append(sum.Sources, c)
				return err
			})
		},
		func() error {
			return s.query(ctx, "analytics campaigns", `SELECT utm_source, utm_medium, utm_campaign, COUNT(DISTINCT visitor) `+visits+`
				AND (utm_source <> '' OR utm_medium <> '' OR utm_campaign <> '')
				GROUP BY utm_source, utm_medium, utm_campaign ORDER BY 4 DESC, 1, 2, 3 LIMIT `+strconv.Itoa(topLimit), span, func(rows *sql.Rows) error {
				var c analytics.CampaignRow
				err := rows.Scan(&c.Source, &c.Medium, &c.Name, &c.Visitors)
				sum.Campaigns = append(sum.Campaigns, c)
				return err
			})
		},
		func() error { return counts("analytics browsers", "browser", &sum.Browsers) },
		func() error { return counts("analytics oses", "os", &sum.OSes) },
		func() error { return counts("analytics devices", "device", &sum.Devices) },
		func() error { return counts("analytics countries", "country", &sum.Countries) },
		func() error { return s.goals(ctx, span, &sum) },
		func() error {
			return s.query(ctx, "analytics not counted", `SELECT reason, SUM(count) FROM analytics_not_counted
				WHERE day >= ? AND day < ? GROUP BY reason`, []any{day(since), day(until.Add(24*time.Hour - time.Nanosecond))},
				func(rows *sql.Rows) error {
					var reason string
					var n int64
					err := rows.Scan(&reason, &n)
					sum.NotCounted.Add(analytics.Reason(reason), n)
					return err
				})
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return sum, err
		}
	}
	return sum, nil
}

// goals fills the conversions of every goal, reached or not.
func (s *DB) goals(ctx context.Context, span []any, sum *analytics.Summary) error {
	reached := map[analytics.Goal]analytics.GoalCount{}
	err := s.query(ctx, "analytics conversions", `SELECT goal, COUNT(*), COUNT(DISTINCT visitor) FROM analytics_conversions
		WHERE at >= ? AND at < ? GROUP BY goal`, span, func(rows *sql.Rows) error {
		var g analytics.GoalCount
		err := rows.Scan(&g.Goal, &g.Count, &g.Visitors)
		reached[g.Goal] = g
		return err
	})
	for _, goal := range analytics.Goals {
		g := reached[goal]
		g.Goal = goal
		if sum.Visitors > 0 {
			g.Rate = round(float64(g.Visitors) / float64(sum.Visitors))
		}
		sum.Conversions = append(sum.Conversions, g)
	}
	return err
}

// day is t's UTC day, as the tallies are kept.
func day(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// round keeps a ratio to four places.
func round(f float64) float64 { return float64(int64(f*10000+0.5)) / 10000 }
