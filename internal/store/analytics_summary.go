package store

import (
	"context"
	"database/sql"
	"slices"
	"strconv"
	"strings"
	"time"

	"studio/internal/analytics"
)

// topLimit is how many rows each list of a summary holds.
const topLimit = 100

// visitorsNowWindow is what "visitors now" looks back over.
const visitorsNowWindow = 5 * 60

// span is the part of a summary's SQL that picks visits and views: the
// period, and the filters on the visit (v) and on the view (w).
type span struct {
	from, to  int64
	visit     string // conditions on v after its period, each with " AND "
	visitArgs []any
	view      string // conditions on w and v after w's period
	viewArgs  []any
}

func newSpan(from, to time.Time, f analytics.Filters) span {
	sp := span{from: from.Unix(), to: to.Unix()}
	on := func(column, value string) {
		if value == "" {
			return
		}
		if column == "v.source" && value == analytics.Direct {
			value = ""
		}
		sp.visit += " AND " + column + " = ?"
		sp.visitArgs = append(sp.visitArgs, value)
	}
	on("v.entry_path", f.EntryPage)
	on("v.exit_path", f.ExitPage)
	on("v.source", f.Source)
	on("v.utm_source", f.UTMSource)
	on("v.utm_medium", f.UTMMedium)
	on("v.utm_campaign", f.UTMCampaign)
	on("v.browser", f.Browser)
	on("v.os", f.OS)
	on("v.device", f.Device)
	on("v.country", f.Country)
	sp.view, sp.viewArgs = sp.visit, sp.visitArgs
	if f.Path != "" {
		sp.visit += " AND v.id IN (SELECT visit_id FROM analytics_views WHERE path = ?)"
		sp.visitArgs = append(sp.visitArgs, f.Path)
		sp.view += " AND w.path = ?"
		sp.viewArgs = append(slices.Clone(sp.viewArgs), f.Path)
	}
	return sp
}

// visits is the FROM and WHERE of the visits that began in the span.
func (sp span) visits() (string, []any) {
	return ` FROM analytics_visits v WHERE v.started_at >= ? AND v.started_at < ?` + sp.visit,
		append([]any{sp.from, sp.to}, sp.visitArgs...)
}

// views is the FROM and WHERE of the views in the span, with their visits.
func (sp span) views() (string, []any) {
	return ` FROM analytics_views w JOIN analytics_visits v ON v.id = w.visit_id WHERE w.at >= ? AND w.at < ?` + sp.view,
		append([]any{sp.from, sp.to}, sp.viewArgs...)
}

// AnalyticsSummary is what the site did in q's period, narrowed by its
// filters, with the series of q's interval and the period before.
func (s *DB) AnalyticsSummary(ctx context.Context, q analytics.Query) (analytics.Summary, error) {
	if q.Now.IsZero() {
		q.Now = time.Now()
	}
	if q.Interval == "" {
		q.Interval = analytics.Day
	}
	// Empty lists are [] in JSON, never null.
	sum := analytics.Summary{Enabled: true, Since: q.Since.UTC(), Until: q.Until.UTC(), Interval: q.Interval,
		Pages: []analytics.PageCount{}, EntryPages: []analytics.PageCount{}, ExitPages: []analytics.PageCount{},
		Sources: []analytics.SourceCount{}, Campaigns: []analytics.CampaignRow{},
		Browsers: []analytics.Count{}, OSes: []analytics.Count{}, Devices: []analytics.Count{}, Countries: []analytics.Count{}}
	sp := newSpan(q.Since, q.Until, q.Filters)
	now, err := s.analyticsTotals(ctx, sp, q.Interval)
	if err != nil {
		return sum, err
	}
	length := q.Until.Sub(q.Since)
	before, err := s.analyticsTotals(ctx, newSpan(q.Since.Add(-length), q.Since, q.Filters), q.Interval)
	if err != nil {
		return sum, err
	}
	sum.Visitors, sum.Visits, sum.Views, sum.BounceRate, sum.VisitDuration, sum.Series =
		now.Visitors, now.Visits, now.Views, now.BounceRate, now.VisitDuration, now.Series
	if sum.Visits > 0 {
		sum.ViewsPerVisit = round(float64(sum.Views) / float64(sum.Visits))
	}
	sum.Previous = before

	visitsFrom, visitsArgs := sp.visits()
	viewsFrom, viewsArgs := sp.views()
	limit := " LIMIT " + strconv.Itoa(topLimit)
	pages := func(op, q string, args []any, into *[]analytics.PageCount) error {
		return s.query(ctx, op, q, args, func(rows *sql.Rows) error {
			var p analytics.PageCount
			err := rows.Scan(&p.Path, &p.Views, &p.Visitors)
			*into = append(*into, p)
			return err
		})
	}
	counts := func(op, column string, into *[]analytics.Count) error {
		return s.query(ctx, op, `SELECT v.`+column+`, COUNT(DISTINCT v.visitor)`+visitsFrom+` AND v.`+column+` <> ''
			GROUP BY v.`+column+` ORDER BY 2 DESC, 1`+limit, visitsArgs, func(rows *sql.Rows) error {
			var c analytics.Count
			err := rows.Scan(&c.Value, &c.Visitors)
			*into = append(*into, c)
			return err
		})
	}
	steps := []func() error{
		func() error {
			return s.query(ctx, "analytics visitors now", `SELECT COUNT(DISTINCT visitor) FROM analytics_visits WHERE last_at >= ?`,
				[]any{q.Now.Unix() - visitorsNowWindow}, func(rows *sql.Rows) error { return rows.Scan(&sum.VisitorsNow) })
		},
		func() error {
			return pages("analytics pages", `SELECT w.path, COUNT(*), COUNT(DISTINCT v.visitor)`+viewsFrom+`
				GROUP BY w.path ORDER BY 2 DESC, 1`+limit, viewsArgs, &sum.Pages)
		},
		func() error {
			return pages("analytics entry pages", `SELECT v.entry_path, COUNT(*), COUNT(DISTINCT v.visitor)`+visitsFrom+`
				GROUP BY v.entry_path ORDER BY 2 DESC, 1`+limit, visitsArgs, &sum.EntryPages)
		},
		func() error {
			return pages("analytics exit pages", `SELECT v.exit_path, COUNT(*), COUNT(DISTINCT v.visitor)`+visitsFrom+`
				GROUP BY v.exit_path ORDER BY 2 DESC, 1`+limit, visitsArgs, &sum.ExitPages)
		},
		func() error {
			return s.query(ctx, "analytics sources", `SELECT v.source, COUNT(DISTINCT v.visitor)`+visitsFrom+`
				GROUP BY v.source ORDER BY 2 DESC, 1`+limit, visitsArgs, func(rows *sql.Rows) error {
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
			return s.query(ctx, "analytics campaigns", `SELECT v.utm_source, v.utm_medium, v.utm_campaign, COUNT(DISTINCT v.visitor)`+visitsFrom+`
				AND (v.utm_source <> '' OR v.utm_medium <> '' OR v.utm_campaign <> '')
				GROUP BY v.utm_source, v.utm_medium, v.utm_campaign ORDER BY 4 DESC, 1, 2, 3`+limit, visitsArgs, func(rows *sql.Rows) error {
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
		func() error { return s.goals(ctx, sp, &sum) },
		func() error {
			return s.query(ctx, "analytics not counted", `SELECT reason, SUM(count) FROM analytics_not_counted
				WHERE day >= ? AND day < ? GROUP BY reason`, []any{day(q.Since), day(q.Until.Add(24*time.Hour - time.Nanosecond))},
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

// analyticsTotals are the headline numbers and the series of sp.
func (s *DB) analyticsTotals(ctx context.Context, sp span, interval analytics.Interval) (analytics.Totals, error) {
	t := analytics.Totals{Since: time.Unix(sp.from, 0).UTC(), Until: time.Unix(sp.to, 0).UTC()}
	visitsFrom, visitsArgs := sp.visits()
	viewsFrom, viewsArgs := sp.views()
	var duration sql.NullFloat64
	var bounces sql.NullInt64
	err := s.query(ctx, "analytics totals", `SELECT COUNT(DISTINCT v.visitor), COUNT(*),
		SUM(CASE WHEN v.views = 1 THEN 1 ELSE 0 END), AVG(v.last_at - v.started_at)`+visitsFrom, visitsArgs,
		func(rows *sql.Rows) error { return rows.Scan(&t.Visitors, &t.Visits, &bounces, &duration) })
	if err != nil {
		return t, err
	}
	if err := s.query(ctx, "analytics views", `SELECT COUNT(*)`+viewsFrom, viewsArgs,
		func(rows *sql.Rows) error { return rows.Scan(&t.Views) }); err != nil {
		return t, err
	}
	if t.Visits > 0 {
		t.BounceRate = round(float64(bounces.Int64) / float64(t.Visits))
		t.VisitDuration = round(duration.Float64)
	}
	step := int64(interval.Step() / time.Second)
	n := (sp.to - sp.from + step - 1) / step
	t.Series = make([]analytics.Point, n)
	for i := range t.Series {
		t.Series[i].At = time.Unix(sp.from+int64(i)*step, 0).UTC()
	}
	err = s.query(ctx, "analytics series", `SELECT (w.at - ?) / ?, COUNT(*), COUNT(DISTINCT v.visitor)`+viewsFrom+` GROUP BY 1`,
		append([]any{sp.from, step}, viewsArgs...), func(rows *sql.Rows) error {
			var i, views, visitors int64
			if err := rows.Scan(&i, &views, &visitors); err != nil {
				return err
			}
			if i >= 0 && i < n {
				t.Series[i].Views, t.Series[i].Visitors = views, visitors
			}
			return nil
		})
	return t, err
}

// goals fills the conversions of every goal, reached or not, by the
// visitors of sp's visits (with filters) or all visitors (without).
func (s *DB) goals(ctx context.Context, sp span, sum *analytics.Summary) error {
	reached := map[analytics.Goal]analytics.GoalCount{}
	q := `SELECT c.goal, COUNT(*), COUNT(DISTINCT c.visitor) FROM analytics_conversions c`
	args := []any{sp.from, sp.to}
	if sp.visit != "" {
		q += ` JOIN analytics_visits v ON v.id = c.visit_id WHERE c.at >= ? AND c.at < ?` + sp.visit
		args = append(args, sp.visitArgs...)
	} else {
		q += ` WHERE c.at >= ? AND c.at < ?`
	}
	err := s.query(ctx, "analytics conversions", q+` GROUP BY c.goal`, args, func(rows *sql.Rows) error {
		var g analytics.GoalCount
		err := rows.Scan(&g.Goal, &g.Count, &g.Visitors)
		reached[g.Goal] = g
		return err
	})
	if err == nil {
		err = s.query(ctx, "analytics converted visitors", strings.Replace(q, "c.goal, COUNT(*), COUNT(DISTINCT c.visitor)", "COUNT(DISTINCT c.visitor)", 1), args,
			func(rows *sql.Rows) error { return rows.Scan(&sum.ConvertedVisitors) })
	}
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
