package store

import (
	"cmp"
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

// part is where a summary's period is read from: the whole days from
// rolledFrom to rolledTo from the rollups (none when rolledFrom >=
// rolledTo), of them the months from monthsFrom to monthsTo from the
// months' rollups (none when monthsFrom >= monthsTo), and raw from the raw
// rows (none when raw.from >= raw.to).
type part struct {
	rolledFrom, rolledTo int64
	monthsFrom, monthsTo int64
	raw                  span
}

// splitPeriod is where the period from since to until is read from, given
// the rollups' state: without filters, the days rolled up from the rollups
// (whole UTC days: the day since falls in is counted whole; today until a
// few minutes ago) and the rest from the raw rows; with filters, only the raw rows, which are kept from
// filtersFrom on (0 when they cover the period).
func splitPeriod(since, until time.Time, f analytics.Filters, st rollupState) (p part, filtersFrom int64) {
	from, to := since.Unix(), until.Unix()
	rawFrom := from
	if f == (analytics.Filters{}) {
		p.rolledFrom, p.rolledTo = floorDay(from), min(to, st.cut())
		rawFrom = max(from, st.cut())
		// Whole months, over and rolled up for good, within the days.
		p.monthsFrom = monthOf(p.rolledFrom)
		if p.monthsFrom != p.rolledFrom {
			p.monthsFrom = nextMonth(p.monthsFrom)
		}
		p.monthsTo = monthOf(min(p.rolledTo, st.rolledThrough))
	} else if from < st.rawFrom {
		rawFrom, filtersFrom = st.rawFrom, st.rawFrom
	}
	p.raw = newSpan(time.Unix(rawFrom, 0), until, f)
	return p, filtersFrom
}

func (p part) hasRolled() bool { return p.rolledFrom < p.rolledTo }

// rolledRows is the FROM of the rollups of dimension over p's days: its
// whole months from analytics_months, the days around them from
// analytics_days. A row has value, visitors, visits, views, bounces,
// duration and conversions.
func (p part) rolledRows(dimension string) (string, []any) {
	const columns = "value, visitors, visits, views, bounces, duration, conversions"
	days1, months, days2 := [2]int64{p.rolledFrom, p.rolledTo}, [2]int64{}, [2]int64{}
	if p.monthsFrom < p.monthsTo {
		days1, months, days2 = [2]int64{p.rolledFrom, p.monthsFrom}, [2]int64{p.monthsFrom, p.monthsTo}, [2]int64{p.monthsTo, p.rolledTo}
	}
	return ` FROM (SELECT ` + columns + ` FROM analytics_days WHERE dimension = ? AND day >= ? AND day < ?
		UNION ALL SELECT ` + columns + ` FROM analytics_days WHERE dimension = ? AND day >= ? AND day < ?
		UNION ALL SELECT ` + columns + ` FROM analytics_months WHERE dimension = ? AND month >= ? AND month < ?) rolled`,
		[]any{dimension, days1[0], days1[1], dimension, days2[0], days2[1], dimension, months[0], months[1]}
}
func (p part) hasRaw() bool { return p.raw.from < p.raw.to }

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
	st, err := s.analyticsRollupState(ctx)
	if err != nil {
		return sum, err
	}
	p, filtersFrom := splitPeriod(q.Since, q.Until, q.Filters, st)
	if filtersFrom > 0 {
		at := time.Unix(filtersFrom, 0).UTC()
		sum.FiltersFrom = &at
	}
	now, err := s.analyticsTotals(ctx, p, q.Since, q.Until, q.Interval)
	if err != nil {
		return sum, err
	}
	length := q.Until.Sub(q.Since)
	earlier, _ := splitPeriod(q.Since.Add(-length), q.Since, q.Filters, st)
	before, err := s.analyticsTotals(ctx, earlier, q.Since.Add(-length), q.Since, q.Interval)
	if err != nil {
		return sum, err
	}
	sum.Visitors, sum.Visits, sum.Views, sum.BounceRate, sum.VisitDuration, sum.Series =
		now.Visitors, now.Visits, now.Views, now.BounceRate, now.VisitDuration, now.Series
	if sum.Visits > 0 {
		sum.ViewsPerVisit = round(float64(sum.Views) / float64(sum.Visits))
	}
	sum.Previous = before

	steps := []func() error{
		func() error {
			return s.query(ctx, "analytics visitors now", `SELECT COUNT(DISTINCT visitor) FROM analytics_visits WHERE last_at >= ?`,
				[]any{q.Now.Unix() - visitorsNowWindow}, func(rows *sql.Rows) error { return rows.Scan(&sum.VisitorsNow) })
		},
		func() error { return s.goals(ctx, p, &sum) },
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
	for _, l := range summaryLists {
		steps = append(steps, func() error {
			rows, err := s.analyticsList(ctx, p, l)
			for _, r := range rows {
				l.add(&sum, r)
			}
			return err
		})
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return sum, err
		}
	}
	return sum, nil
}

// listRow is a value of a dimension in a period: its views (pages) or
// visits (the rest), and its visitors.
type listRow struct {
	value           string
	count, visitors int64
}

// summaryList is one of a summary's lists: its dimension, and where its
// rows go.
type summaryList struct {
	dimension string
	add       func(*analytics.Summary, listRow)
}

// byCount orders a list by views or visits, else by visitors.
func (l summaryList) byCount() bool {
	return l.dimension == "page" || l.dimension == "entry_page" || l.dimension == "exit_page"
}

func addCount(list func(*analytics.Summary) *[]analytics.Count) func(*analytics.Summary, listRow) {
	return func(sum *analytics.Summary, r listRow) {
		*list(sum) = append(*list(sum), analytics.Count{Value: r.value, Visitors: r.visitors})
	}
}

func addPage(list func(*analytics.Summary) *[]analytics.PageCount) func(*analytics.Summary, listRow) {
	return func(sum *analytics.Summary, r listRow) {
		*list(sum) = append(*list(sum), analytics.PageCount{Path: r.value, Views: r.count, Visitors: r.visitors})
	}
}

var summaryLists = []summaryList{
	{"page", addPage(func(s *analytics.Summary) *[]analytics.PageCount { return &s.Pages })},
	{"entry_page", addPage(func(s *analytics.Summary) *[]analytics.PageCount { return &s.EntryPages })},
	{"exit_page", addPage(func(s *analytics.Summary) *[]analytics.PageCount { return &s.ExitPages })},
	{"source", func(sum *analytics.Summary, r listRow) {
		if r.value == "" {
			r.value = analytics.Direct
		}
		sum.Sources = append(sum.Sources, analytics.SourceCount{Source: r.value, Visitors: r.visitors})
	}},
	{"campaign", func(sum *analytics.Summary, r listRow) {
		c := strings.SplitN(r.value, "\t", 3)
		for len(c) < 3 {
			c = append(c, "")
		}
		sum.Campaigns = append(sum.Campaigns, analytics.CampaignRow{Source: c[0], Medium: c[1], Name: c[2], Visitors: r.visitors})
	}},
	{"browser", addCount(func(s *analytics.Summary) *[]analytics.Count { return &s.Browsers })},
	{"os", addCount(func(s *analytics.Summary) *[]analytics.Count { return &s.OSes })},
	{"device", addCount(func(s *analytics.Summary) *[]analytics.Count { return &s.Devices })},
	{"country", addCount(func(s *analytics.Summary) *[]analytics.Count { return &s.Countries })},
}

// analyticsList is the top rows of l in p: those of the rollups and of the
// raw rows added up.
func (s *DB) analyticsList(ctx context.Context, p part, l summaryList) ([]listRow, error) {
	order := " ORDER BY 3 DESC, 1"
	if l.byCount() {
		order = " ORDER BY 2 DESC, 1"
	}
	limit := " LIMIT " + strconv.Itoa(topLimit)
	totals := map[string]*listRow{}
	scan := func(rows *sql.Rows) error {
		var r listRow
		if err := rows.Scan(&r.value, &r.count, &r.visitors); err != nil {
			return err
		}
		if t := totals[r.value]; t != nil {
			t.count, t.visitors = t.count+r.count, t.visitors+r.visitors
		} else {
			totals[r.value] = &r
		}
		return nil
	}
	if p.hasRolled() {
		count := "visits"
		if l.dimension == "page" {
			count = "views"
		}
		from, args := p.rolledRows(l.dimension)
		if err := s.query(ctx, "analytics rolled "+l.dimension, `SELECT value, SUM(`+count+`), SUM(visitors)`+from+
			` GROUP BY value`+order+limit, args, scan); err != nil {
			return nil, err
		}
	}
	if p.hasRaw() {
		value := "w.path"
		from, args := p.raw.views()
		if l.dimension != "page" {
			value = visitValue(l.dimension)
			from, args = p.raw.visits()
		}
		if skipsEmpty(l.dimension) {
			from += emptyCondition(l.dimension)
		}
		if err := s.query(ctx, "analytics "+l.dimension, `SELECT `+value+`, COUNT(*), COUNT(DISTINCT v.visitor)`+from+
			` GROUP BY 1`+order+limit, args, scan); err != nil {
			return nil, err
		}
	}
	rows := make([]listRow, 0, len(totals))
	for _, r := range totals {
		rows = append(rows, *r)
	}
	slices.SortFunc(rows, func(a, b listRow) int {
		x, y := a.visitors, b.visitors
		if l.byCount() {
			x, y = a.count, b.count
		}
		if x != y {
			return cmp.Compare(y, x)
		}
		return strings.Compare(a.value, b.value)
	})
	return rows[:min(len(rows), topLimit)], nil
}

// analyticsTotals are the headline numbers of p and the series of the
// period from since to until.
func (s *DB) analyticsTotals(ctx context.Context, p part, since, until time.Time, interval analytics.Interval) (analytics.Totals, error) {
	t := analytics.Totals{Since: since.UTC(), Until: until.UTC()}
	var bounces, duration int64
	origin, step := since.Unix(), int64(interval.Step()/time.Second)
	n := (until.Unix() - origin + step - 1) / step
	t.Series = make([]analytics.Point, n)
	for i := range t.Series {
		t.Series[i].At = time.Unix(origin+int64(i)*step, 0).UTC()
	}
	// addPoint adds to the step that at falls in (a rolled-up day that
	// began before since, to the first).
	addPoint := func(at, views, visitors int64) {
		if i := max(0, (at-origin)/step); i < n {
			t.Series[i].Views += views
			t.Series[i].Visitors += visitors
		}
	}
	if p.hasRolled() {
		from, args := p.rolledRows("")
		err := s.query(ctx, "analytics rolled totals", `SELECT COALESCE(SUM(visitors), 0), COALESCE(SUM(visits), 0),
			COALESCE(SUM(views), 0), COALESCE(SUM(bounces), 0), COALESCE(SUM(duration), 0)`+from, args,
			func(rows *sql.Rows) error { return rows.Scan(&t.Visitors, &t.Visits, &t.Views, &bounces, &duration) })
		if err != nil {
			return t, err
		}
		series := `SELECT day, views, visitors FROM analytics_days WHERE dimension = '' AND day >= ? AND day < ?`
		args = []any{p.rolledFrom, p.rolledTo}
		if interval == analytics.Hour {
			series = `SELECT hour, views, visitors FROM analytics_hours WHERE hour >= ? AND hour < ?`
			args = []any{max(origin, p.rolledFrom), p.rolledTo}
		}
		if err := s.query(ctx, "analytics rolled series", series, args, func(rows *sql.Rows) error {
			var at, views, visitors int64
			err := rows.Scan(&at, &views, &visitors)
			addPoint(at, views, visitors)
			return err
		}); err != nil {
			return t, err
		}
	}
	if p.hasRaw() {
		visitsFrom, visitsArgs := p.raw.visits()
		viewsFrom, viewsArgs := p.raw.views()
		var visitors, visits, views, rawBounces, rawDuration int64
		err := s.query(ctx, "analytics totals", `SELECT COUNT(DISTINCT v.visitor), COUNT(*),
			COALESCE(SUM(CASE WHEN v.views = 1 THEN 1 ELSE 0 END), 0), COALESCE(SUM(v.last_at - v.started_at), 0)`+visitsFrom, visitsArgs,
			func(rows *sql.Rows) error { return rows.Scan(&visitors, &visits, &rawBounces, &rawDuration) })
		if err != nil {
			return t, err
		}
		if err := s.query(ctx, "analytics views", `SELECT COUNT(*)`+viewsFrom, viewsArgs,
			func(rows *sql.Rows) error { return rows.Scan(&views) }); err != nil {
			return t, err
		}
		t.Visitors, t.Visits, t.Views = t.Visitors+visitors, t.Visits+visits, t.Views+views
		bounces, duration = bounces+rawBounces, duration+rawDuration
		err = s.query(ctx, "analytics series", `SELECT (w.at - ?) / ?, COUNT(*), COUNT(DISTINCT v.visitor)`+viewsFrom+` GROUP BY 1`,
			append([]any{origin, step}, viewsArgs...), func(rows *sql.Rows) error {
				var i, views, visitors int64
				err := rows.Scan(&i, &views, &visitors)
				addPoint(origin+i*step, views, visitors)
				return err
			})
		if err != nil {
			return t, err
		}
	}
	if t.Visits > 0 {
		t.BounceRate = round(float64(bounces) / float64(t.Visits))
		t.VisitDuration = round(float64(duration) / float64(t.Visits))
	}
	return t, nil
}

// goals fills the conversions of every goal, reached or not: those of the
// rolled-up days and those of p's raw visits (with filters) or of all
// visitors (without).
func (s *DB) goals(ctx context.Context, p part, sum *analytics.Summary) error {
	reached := map[analytics.Goal]analytics.GoalCount{}
	add := func(rows *sql.Rows) error {
		var g analytics.GoalCount
		if err := rows.Scan(&g.Goal, &g.Count, &g.Visitors); err != nil {
			return err
		}
		if g.Goal == "" { // any goal
			sum.ConvertedVisitors += g.Visitors
			return nil
		}
		r := reached[g.Goal]
		r.Count, r.Visitors = r.Count+g.Count, r.Visitors+g.Visitors
		reached[g.Goal] = r
		return nil
	}
	if p.hasRolled() {
		from, args := p.rolledRows("goal")
		if err := s.query(ctx, "analytics rolled conversions", `SELECT value, SUM(conversions), SUM(visitors)`+from+
			` GROUP BY value`, args, add); err != nil {
			return err
		}
	}
	if p.hasRaw() {
		sp := p.raw
		q := ` FROM analytics_conversions c`
		args := []any{sp.from, sp.to}
		if sp.visit != "" {
			q += ` JOIN analytics_visits v ON v.id = c.visit_id WHERE c.at >= ? AND c.at < ?` + sp.visit
			args = append(args, sp.visitArgs...)
		} else {
			q += ` WHERE c.at >= ? AND c.at < ?`
		}
		if err := s.query(ctx, "analytics conversions", `SELECT c.goal, COUNT(*), COUNT(DISTINCT c.visitor)`+q+` GROUP BY c.goal
			UNION ALL SELECT '', COUNT(*), COUNT(DISTINCT c.visitor)`+q, append(args, args...), add); err != nil {
			return err
		}
	}
	for _, goal := range analytics.Goals {
		g := reached[goal]
		g.Goal = goal
		if sum.Visitors > 0 {
			g.Rate = round(float64(g.Visitors) / float64(sum.Visitors))
		}
		sum.Conversions = append(sum.Conversions, g)
	}
	return nil
}

// day is t's UTC day, as the tallies are kept.
func day(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// round keeps a ratio to four places.
func round(f float64) float64 { return float64(int64(f*10000+0.5)) / 10000 }
