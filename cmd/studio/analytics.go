package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"studio/internal/analytics"
	"studio/internal/store"
)

// analyticsFlags are serve's flags of the counting (package analytics).
type analyticsFlags struct {
	mode      string
	retention int
}

func bindAnalyticsFlags(fs *flag.FlagSet, env func(string) string) *analyticsFlags {
	var a analyticsFlags
	envString(fs, &a.mode, "analytics", "STUDIO_ANALYTICS", "on", "count the pages shown and the goals reached, with no cookie and no script (docs/analytics.md): on or off", env)
	envInt(fs, &a.retention, "analytics-retention", "STUDIO_ANALYTICS_RETENTION", 30, "days the raw views and visits are kept", env)
	return &a
}

// check reports a flag's bad value.
func (a *analyticsFlags) check() error {
	if a.mode != "on" && a.mode != "off" {
		return fmt.Errorf("--analytics %q: want on or off", a.mode)
	}
	if a.retention < 1 {
		return fmt.Errorf("--analytics-retention %d: want at least 1 day", a.retention)
	}
	return nil
}

// counter is the counter the flags ask for, nil when off; run it with Run.
func (a *analyticsFlags) counter(db *store.DB, site string, logger *slog.Logger) *analytics.Counter {
	if a.mode == "off" {
		return nil
	}
	return analytics.New(db, analytics.Config{Site: site, Retention: time.Duration(a.retention) * 24 * time.Hour, Logger: logger})
}

var analyticsSummaryCommand = command{
	name:    "analytics summary",
	summary: "what the site did over a period: visitors, visits, pages, sources, conversions",
	description: "Prints what the site counted (docs/analytics.md) from --since ago until --until ago (or now):\n" +
		"visitors, visits, views, bounce rate, the top pages, entry pages, sources, campaigns, browsers,\n" +
		"devices, the conversions of each goal, and the requests not counted. --format json prints the\n" +
		"shape the README shows.",
	setup: func(fs *flag.FlagSet, env func(string) string) action {
		cfg := storeFlags(fs, env)
		var since, until, format string
		fs.StringVar(&since, "since", "7d", "start of the period, as a time ago: 24h, 90m or 7d")
		fs.StringVar(&until, "until", "", "end of the period, as a time ago (empty: now)")
		fs.StringVar(&format, "format", "table", "output format: table or json")
		return func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) error {
			if err := noArgs(fs, stderr); err != nil {
				return err
			}
			if format != "table" && format != "json" {
				fmt.Fprintf(stderr, "unknown --format %q: want table or json\n", format)
				return errUsage
			}
			back, err := parseSince(since)
			if err != nil {
				fmt.Fprintln(stderr, err)
				return errUsage
			}
			forward, err := parseSince(until)
			if err != nil {
				fmt.Fprintln(stderr, strings.Replace(err.Error(), "--since", "--until", 1))
				return errUsage
			}
			now := time.Now()
			if forward >= back {
				fmt.Fprintf(stderr, "--until %s is not after --since %s\n", until, since)
				return errUsage
			}
			return withStore(ctx, *cfg, func(db *store.DB) error {
				sum, err := db.AnalyticsSummary(ctx, analytics.Query{Since: now.Add(-back), Until: now.Add(-forward)})
				if err != nil {
					return err
				}
				if format == "json" {
					enc := json.NewEncoder(stdout)
					enc.SetIndent("", "  ")
					return enc.Encode(sum)
				}
				return writeSummary(stdout, sum)
			})
		}
	},
}

// writeSummary prints sum as aligned tables.
func writeSummary(w io.Writer, sum analytics.Summary) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	pct := func(f float64) string { return strconv.FormatFloat(f*100, 'f', 1, 64) + " %" }
	fmt.Fprintf(tw, "Period\t%s – %s\n", sum.Since.Format(time.RFC3339), sum.Until.Format(time.RFC3339))
	fmt.Fprintf(tw, "Visitors\t%d\nVisits\t%d\nViews\t%d\nViews per visit\t%.2f\nBounce rate\t%s\nVisit duration\t%s\n",
		sum.Visitors, sum.Visits, sum.Views, sum.ViewsPerVisit, pct(sum.BounceRate), time.Duration(sum.VisitDuration*float64(time.Second)).Round(time.Second))
	section := func(title string, header string, rows func()) {
		fmt.Fprintf(tw, "\n%s\n%s\n", title, header)
		rows()
	}
	section("Top pages", "PATH\tVIEWS\tVISITORS", func() {
		for _, p := range sum.Pages {
			fmt.Fprintf(tw, "%s\t%d\t%d\n", oneLineCell(p.Path), p.Views, p.Visitors)
		}
	})
	section("Entry pages", "PATH\tVISITS\tVISITORS", func() {
		for _, p := range sum.EntryPages {
			fmt.Fprintf(tw, "%s\t%d\t%d\n", oneLineCell(p.Path), p.Views, p.Visitors)
		}
	})
	section("Sources", "SOURCE\tVISITORS", func() {
		for _, s := range sum.Sources {
			fmt.Fprintf(tw, "%s\t%d\n", oneLineCell(s.Source), s.Visitors)
		}
	})
	section("Campaigns", "UTM_SOURCE\tUTM_MEDIUM\tUTM_CAMPAIGN\tVISITORS", func() {
		for _, c := range sum.Campaigns {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\n", oneLineCell(c.Source), oneLineCell(c.Medium), oneLineCell(c.Name), c.Visitors)
		}
	})
	for _, list := range []struct {
		title string
		rows  []analytics.Count
	}{{"Browsers", sum.Browsers}, {"Operating systems", sum.OSes}, {"Devices", sum.Devices}, {"Countries", sum.Countries}} {
		section(list.title, "NAME\tVISITORS", func() {
			for _, c := range list.rows {
				fmt.Fprintf(tw, "%s\t%d\n", c.Value, c.Visitors)
			}
		})
	}
	section("Conversions", "GOAL\tCOUNT\tVISITORS\tRATE", func() {
		for _, g := range sum.Conversions {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%s\n", g.Goal, g.Count, g.Visitors, pct(g.Rate))
		}
	})
	n := sum.NotCounted
	section("Not counted", "REASON\tREQUESTS", func() {
		fmt.Fprintf(tw, "bot\t%d\ngpc\t%d\ndnt\t%d\nprefetch_not_shown\t%d\ndropped\t%d\n", n.Bot, n.GPC, n.DNT, n.PrefetchNotShown, n.Dropped)
	})
	return tw.Flush()
}
