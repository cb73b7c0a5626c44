package main

import (
	"database/sql"
	"fmt"
	"net/http"
	"time"
)

// The analytics workload (make bench-analytics): the console's analytics
// screen over a year at 100,000 views a day. The last 30 days are raw rows
// (the default retention), rolled up by the server itself as it would each
// night; the eleven months before are copies of those rollups. Then each
// period the screen offers is asked for through rest/v1's
// analytics_summary, one request at a time.

// analyticsPeriods are the screen's periods (and a filtered one, which
// reads raw rows only), as the screen asks for them.
var analyticsPeriods = []struct {
	name, interval string
	days           int
	filters        string
}{
	{"today, by hour", "hour", 0, ""},
	{"7 days", "day", 7, ""},
	{"30 days", "day", 30, ""},
	{"12 months", "day", 365, ""},
	{"30 days, one source", "day", 30, `{"source":"site7.example"}`},
}

func benchAnalytics(binary string, engines []string, viewsPerDay, requests int) error {
	fmt.Printf("analytics: a year at %d views a day (30 days raw, the rest rolled up); %d requests per period (one client, p50/p99)\n\n", viewsPerDay, requests)
	fmt.Printf("%-9s %-24s %10s %10s %10s\n", "store", "measure", "p50", "p99", "max")
	for _, engine := range engines {
		if err := benchAnalyticsEngine(binary, engine, viewsPerDay, requests); err != nil {
			return fmt.Errorf("%s: %w", engine, err)
		}
	}
	return nil
}

func benchAnalyticsEngine(binary, engine string, viewsPerDay, requests int) error {
	st, err := newStore(engine)
	if err != nil {
		return err
	}
	defer st.cleanup()
	serve := append([]string{"serve", "--addr", "127.0.0.1:0", "--rate-limit", "off", "--auth-rate-limit", "off"}, st.args...)
	_, stop, err := start(binary, serve, st.env) // the schema
	if err != nil {
		return err
	}
	stop()
	db, err := openStore(engine, st.args, st.env)
	if err != nil {
		return err
	}
	defer db.Close()
	now := time.Now().UTC()
	t0 := time.Now()
	if err := seedViews(db, now, viewsPerDay); err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	fmt.Printf("%-9s %-24s %10s\n", engine, "seed 30 days of views", ms(time.Since(t0)))

	// The server rolls up the days that are over at its first flush.
	t0 = time.Now()
	base, stop, err := start(binary, serve, st.env)
	if err != nil {
		return err
	}
	defer stop()
	today := now.Truncate(24 * time.Hour).Unix()
	for {
		var through int64
		if err := db.QueryRow(`SELECT rolled_through FROM analytics_rollup_state WHERE id = 'state'`).Scan(&through); err != nil {
			return err
		}
		if through >= today {
			break
		}
		if time.Since(t0) > 10*time.Minute {
			return fmt.Errorf("the server rolled up through %d, not %d, in 10 minutes", through, today)
		}
		time.Sleep(100 * time.Millisecond)
	}
	fmt.Printf("%-9s %-24s %10s\n", engine, "roll up a day (of 30)", ms(time.Since(t0)/30))
	if err := copyRollups(db, engine, today); err != nil {
		return fmt.Errorf("copy rollups: %w", err)
	}
	// Started again, the server rolls up the copied days' months.
	stop()
	if base, stop, err = start(binary, serve, st.env); err != nil {
		return err
	}
	defer stop()
	for t0 := time.Now(); ; time.Sleep(100 * time.Millisecond) {
		var months int
		if err := db.QueryRow(`SELECT COUNT(DISTINCT month) FROM analytics_months`).Scan(&months); err != nil {
			return err
		}
		if months >= 12 {
			break
		}
		if time.Since(t0) > time.Minute {
			return fmt.Errorf("the server rolled up %d months, not 12, in a minute", months)
		}
	}

	staff, err := newStaff(st, binary, base)
	if err != nil {
		return err
	}
	client := &http.Client{Timeout: 30 * time.Second}
	for _, p := range analyticsPeriods {
		until := now.Truncate(24*time.Hour).AddDate(0, 0, 1)
		since := until.AddDate(0, 0, -max(1, p.days))
		body := fmt.Sprintf(`{"since":%q,"until":%q,"interval":%q`, since.Format(time.RFC3339), until.Format(time.RFC3339), p.interval)
		if p.filters != "" {
			body += `,"filters":` + p.filters
		}
		body += "}"
		var views struct{ Views int64 }
		if err := call(client, "POST", base+"/rest/v1/rpc/analytics_summary", body, staff.AccessToken, &views); err != nil {
			return err
		}
		if views.Views == 0 {
			return fmt.Errorf("%s: no views counted", p.name)
		}
		n := requests
		if p.filters != "" {
			n = max(10, requests/10) // raw rows: seconds each at this scale
		}
		lat, err := timeRequests(n, func() error {
			return call(client, "POST", base+"/rest/v1/rpc/analytics_summary", body, staff.AccessToken, nil)
		})
		if err != nil {
			return err
		}
		printLatencies(engine, fmt.Sprintf("%s (%s views)", p.name, compact(views.Views)), lat)
	}
	return nil
}

// compact writes n as "3.0M" or "700k".
func compact(n int64) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 1000:
		return fmt.Sprintf("%dk", n/1000)
	}
	return fmt.Sprint(n)
}

// seedViews writes 30 days of visits ending at now, viewsPerDay views a
// day: three views a visit on average, 60 pages, 30 referring sites and
// direct visits, 10 campaigns, 10 browsers, 8 systems, 3 devices, 60
// countries, and one visit in a hundred converting.
func seedViews(db *sql.DB, now time.Time, viewsPerDay int) error {
	const days = 30
	visits := viewsPerDay / 3 * days
	from, span := now.Unix()-days*86400, int64(days*86400)
	statements := []string{
		fmt.Sprintf(`INSERT INTO analytics_visits (visitor, started_at, last_at, entry_path, exit_path, views, source,
			utm_source, utm_medium, utm_campaign, browser, os, device, country)
		SELECT 'visitor-' || (i * 5 / 6), s, s + (i %% 5) * 60, '/page-' || (i %% 60), '/page-' || ((i + i %% 5) %% 60), 1 + i %% 5,
			CASE WHEN i %% 4 = 0 THEN '' ELSE 'site' || (i %% 30) || '.example' END,
			CASE WHEN i %% 10 = 0 THEN 'news' || (i %% 100 / 10) ELSE '' END, CASE WHEN i %% 10 = 0 THEN 'email' ELSE '' END,
			CASE WHEN i %% 10 = 0 THEN 'launch' ELSE '' END,
			'Browser ' || (i %% 10), 'System ' || (i %% 8), CASE i %% 3 WHEN 0 THEN 'phone' WHEN 1 THEN 'tablet' ELSE 'desktop' END,
			'C' || (i %% 60)
		FROM (SELECT i, %d + i * %d / %d AS s FROM (WITH RECURSIVE n(i) AS (SELECT CAST(0 AS BIGINT) UNION ALL SELECT i + 1 FROM n WHERE i < %d) SELECT i FROM n) ns) visits`,
			from, span, visits, visits-1),
		`INSERT INTO analytics_views (visit_id, at, path)
		SELECT v.id, v.started_at + k.k * 60, '/page-' || ((v.id + k.k) % 60)
		FROM analytics_visits v JOIN (SELECT 0 AS k UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4) k ON k.k < v.views`,
		`INSERT INTO analytics_conversions (visit_id, visitor, at, goal)
		SELECT id, visitor, last_at, CASE id % 3 WHEN 0 THEN 'contact' WHEN 1 THEN 'newsletter' ELSE 'download' END
		FROM analytics_visits WHERE id % 100 = 0`,
	}
	for _, q := range statements {
		if _, err := db.Exec(q); err != nil {
			return err
		}
	}
	return nil
}

// copyRollups makes a year of rollups from the 30 days rolled up: the
// days before them are copies, 30 days at a time.
func copyRollups(db *sql.DB, engine string, today int64) error {
	first := today - 30*86400
	for k := int64(1); k <= 12; k++ {
		shift := k * 30 * 86400
		for _, q := range []string{
			fmt.Sprintf(`INSERT INTO analytics_days (dimension, day, value, visitors, visits, views, bounces, duration, conversions)
				SELECT dimension, day - %d, value, visitors, visits, views, bounces, duration, conversions
				FROM analytics_days WHERE day >= %d AND day < %d`, shift, first, today),
			fmt.Sprintf(`INSERT INTO analytics_hours (hour, views, visitors)
				SELECT hour - %d, views, visitors FROM analytics_hours WHERE hour >= %d AND hour < %d`, shift, first, today),
		} {
			if _, err := db.Exec(q); err != nil {
				return err
			}
		}
	}
	// Months the copies fill in are summed again from their days.
	if _, err := db.Exec(`DELETE FROM analytics_months`); err != nil {
		return err
	}
	if engine == "postgres" {
		_, err := db.Exec("VACUUM ANALYZE analytics_days, analytics_months, analytics_hours, analytics_visits, analytics_views, analytics_conversions")
		return err
	}
	_, err := db.Exec("ANALYZE")
	return err
}
