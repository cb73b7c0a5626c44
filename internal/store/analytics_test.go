package store_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"studio/internal/analytics"
	"studio/internal/store/storetest"
)

func testAnalytics(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	day := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	at := func(minutes int) time.Time { return day.Add(9*time.Hour + time.Duration(minutes)*time.Minute) }

	first, err := db.DailySalt(ctx, "2026-03-02", []byte("salt one"))
	if err != nil {
		t.Fatal(err)
	}
	second, err := db.DailySalt(ctx, "2026-03-02", []byte("salt two"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, []byte("salt one")) || !bytes.Equal(second, first) {
		t.Fatalf("salts %q then %q: every instance must get the first one stored", first, second)
	}

	ada := func(m int, path string) analytics.View {
		return analytics.View{Visitor: "ada", At: at(m), Path: path, Browser: "Firefox", OS: "Linux", Device: "desktop", Country: "FR"}
	}
	landing := ada(0, "/")
	landing.Source, landing.Campaign = "news.example", analytics.Campaign{Source: "news.example", Medium: "social", Name: "launch"}
	batches := []analytics.Batch{
		{Views: []analytics.View{ada(1, "/about"), landing}, // out of order: the store sorts them
			NotCounted: map[analytics.DayReason]int64{{Day: "2026-03-02", Reason: analytics.ReasonBot}: 3}},
		{Views: []analytics.View{ada(5, "/contact"),
			{Visitor: "bo", At: at(2), Path: "/products", Browser: "Safari", OS: "iOS", Device: "phone"}},
			Conversions: []analytics.Conversion{{Visitor: "ada", At: at(6), Goal: analytics.GoalContact}, {Visitor: "ada", At: at(7), Goal: analytics.GoalNewsletter}},
			NotCounted:  map[analytics.DayReason]int64{{Day: "2026-03-02", Reason: analytics.ReasonBot}: 1, {Day: "2026-03-02", Reason: analytics.ReasonGPC}: 2}},
		// 40 minutes later: a second visit.
		{Views: []analytics.View{ada(45, "/resources")}},
	}
	for _, b := range batches {
		if err := db.WriteAnalytics(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	sum, err := db.AnalyticsSummary(ctx, analytics.Query{Since: day, Until: day.Add(24 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	want := analytics.Summary{
		Enabled: true, Since: day, Until: day.Add(24 * time.Hour), Interval: analytics.Day,
		Visitors: 2, Visits: 3, Views: 5, ViewsPerVisit: 1.6667, BounceRate: 0.6667, VisitDuration: 100,
		Pages: []analytics.PageCount{{Path: "/", Views: 1, Visitors: 1}, {Path: "/about", Views: 1, Visitors: 1},
			{Path: "/contact", Views: 1, Visitors: 1}, {Path: "/products", Views: 1, Visitors: 1}, {Path: "/resources", Views: 1, Visitors: 1}},
		EntryPages: []analytics.PageCount{{Path: "/", Views: 1, Visitors: 1}, {Path: "/products", Views: 1, Visitors: 1}, {Path: "/resources", Views: 1, Visitors: 1}},
		ExitPages:  []analytics.PageCount{{Path: "/contact", Views: 1, Visitors: 1}, {Path: "/products", Views: 1, Visitors: 1}, {Path: "/resources", Views: 1, Visitors: 1}},
		Sources:    []analytics.SourceCount{{Source: analytics.Direct, Visitors: 2}, {Source: "news.example", Visitors: 1}},
		Campaigns:  []analytics.CampaignRow{{Source: "news.example", Medium: "social", Name: "launch", Visitors: 1}},
		Browsers:   []analytics.Count{{Value: "Firefox", Visitors: 1}, {Value: "Safari", Visitors: 1}},
		OSes:       []analytics.Count{{Value: "Linux", Visitors: 1}, {Value: "iOS", Visitors: 1}},
		Devices:    []analytics.Count{{Value: "desktop", Visitors: 1}, {Value: "phone", Visitors: 1}},
		Countries:  []analytics.Count{{Value: "FR", Visitors: 1}},
		NotCounted: analytics.NotCounted{Bot: 4, GPC: 2},
		Series:     []analytics.Point{{At: day, Visitors: 2, Views: 5}},
		Previous: analytics.Totals{Since: day.Add(-24 * time.Hour), Until: day,
			Series: []analytics.Point{{At: day.Add(-24 * time.Hour)}}},
	}
	for _, g := range analytics.Goals {
		c := analytics.GoalCount{Goal: g}
		if g == analytics.GoalContact || g == analytics.GoalNewsletter {
			c = analytics.GoalCount{Goal: g, Count: 1, Visitors: 1, Rate: 0.5}
		}
		want.Conversions = append(want.Conversions, c)
	}
	want.ConvertedVisitors = 1
	if diff := cmp.Diff(want, sum); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}

	// The next day's summary holds none of it, but its previous period does.
	next, err := db.AnalyticsSummary(ctx, analytics.Query{Since: day.Add(24 * time.Hour), Until: day.Add(48 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if next.Views != 0 || next.Visits != 0 || next.NotCounted != (analytics.NotCounted{}) {
		t.Errorf("the next day counts %+v", next)
	}
	if p := next.Previous; p.Visits != 3 || p.Views != 5 || p.Visitors != 2 || p.BounceRate != 0.6667 || len(p.Series) != 1 || p.Series[0].Views != 5 {
		t.Errorf("the next day's previous period: %+v", p)
	}

	// Hourly, narrowed by a filter; and visitors now.
	nine := at(0).Truncate(time.Hour)
	narrowed := func(f analytics.Filters) analytics.Summary {
		t.Helper()
		s, err := db.AnalyticsSummary(ctx, analytics.Query{Since: nine, Until: nine.Add(2 * time.Hour), Interval: analytics.Hour, Filters: f, Now: at(46)})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	fromNews := narrowed(analytics.Filters{Source: "news.example"})
	if fromNews.Visits != 1 || fromNews.Views != 3 || len(fromNews.Pages) != 3 ||
		!cmp.Equal(fromNews.Series, []analytics.Point{{At: nine, Visitors: 1, Views: 3}, {At: nine.Add(time.Hour)}}) {
		t.Errorf("from news.example, hourly: %d visits, %d views, pages %+v, series %+v", fromNews.Visits, fromNews.Views, fromNews.Pages, fromNews.Series)
	}
	if fromNews.VisitorsNow != 1 {
		t.Errorf("visitors now: %d, want 1 (Ada, 1 minute ago; Bo 44 minutes ago)", fromNews.VisitorsNow)
	}
	if direct := narrowed(analytics.Filters{Source: analytics.Direct}); direct.Visits != 2 || direct.Views != 2 || direct.Conversions[0].Count != 0 {
		t.Errorf("direct: %d visits, %d views, %+v", direct.Visits, direct.Views, direct.Conversions[0])
	}
	contactPage := narrowed(analytics.Filters{Path: "/contact"})
	if contactPage.Visits != 1 || contactPage.Views != 1 || len(contactPage.Pages) != 1 || contactPage.Conversions[0].Count != 1 {
		t.Errorf("/contact: %d visits, %d views, pages %+v, %+v", contactPage.Visits, contactPage.Views, contactPage.Pages, contactPage.Conversions[0])
	}
	if phones := narrowed(analytics.Filters{Device: "phone", Country: "FR"}); phones.Visits != 0 {
		t.Errorf("phones in France: %d visits, want none", phones.Visits)
	}

	// Rolling up: the day is kept as rollups, summed up as the raw rows
	// were; the next day, not over yet, is not rolled up.
	tomorrow := analytics.View{Visitor: "cy", At: day.Add(34 * time.Hour), Path: "/studio", Browser: "Chrome", OS: "Android", Device: "phone"}
	if err := db.WriteAnalytics(ctx, analytics.Batch{Views: []analytics.View{tomorrow}}); err != nil {
		t.Fatal(err)
	}
	for range 2 { // a second instance finds it done
		if err := db.RollUpAnalytics(ctx, day.Add(36*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	wholeDay := func(what string, q analytics.Query) {
		t.Helper()
		q.Since, q.Until = day, day.Add(24*time.Hour)
		got, err := db.AnalyticsSummary(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s, the day from its rollups (-want +got):\n%s", what, diff)
		}
	}
	wholeDay("rolled up", analytics.Query{})
	// The next day is rolled up until a minute before; what came after is read raw.
	late := analytics.View{Visitor: "dee", At: day.Add(35*time.Hour + 59*time.Minute + 30*time.Second), Path: "/contact", Browser: "Chrome", OS: "Windows", Device: "desktop"}
	if err := db.WriteAnalytics(ctx, analytics.Batch{Views: []analytics.View{late}}); err != nil {
		t.Fatal(err)
	}
	hourly, err := db.AnalyticsSummary(ctx, analytics.Query{Since: day, Until: day.Add(48 * time.Hour), Interval: analytics.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if p := hourly.Series; len(p) != 48 || p[9] != (analytics.Point{At: nine, Visitors: 2, Views: 5}) || p[34].Views != 1 || p[35].Views != 1 ||
		hourly.Views != 7 || hourly.Visitors != 4 || hourly.Pages[0] != (analytics.PageCount{Path: "/contact", Views: 2, Visitors: 2}) {
		t.Errorf("hourly over the rolled day, the next one's rollups and its raw rows: %d views by %d visitors, pages %+v, series %+v",
			hourly.Views, hourly.Visitors, hourly.Pages, p)
	}

	// Pruning: the raw rows of rolled-up days before the cut go (the next
	// day, not rolled up, stays whole), and the salts of older days.
	if _, err := db.DailySalt(ctx, "2026-03-04", []byte("later")); err != nil {
		t.Fatal(err)
	}
	if err := db.PruneAnalytics(ctx, day.Add(72*time.Hour), "2026-03-03"); err != nil {
		t.Fatal(err)
	}
	if err := db.RollUpAnalytics(ctx, day.Add(36*time.Hour)); err != nil {
		t.Fatal(err)
	}
	wholeDay("pruned", analytics.Query{})
	fromNews = narrowed(analytics.Filters{Source: "news.example"})
	if fromNews.Visits != 0 || fromNews.FiltersFrom == nil || !fromNews.FiltersFrom.Equal(day.Add(24*time.Hour)) {
		t.Errorf("filtered after pruning: %d visits, filters from %v; want none, from the next day", fromNews.Visits, fromNews.FiltersFrom)
	}
	sum, err = db.AnalyticsSummary(ctx, analytics.Query{Since: day.Add(24 * time.Hour), Until: day.Add(48 * time.Hour), Filters: analytics.Filters{Device: "phone"}})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Visits != 1 || sum.Views != 1 || sum.FiltersFrom != nil {
		t.Errorf("the next day, raw, filtered: %d visits, %d views, filters from %v; want 1, 1, nil", sum.Visits, sum.Views, sum.FiltersFrom)
	}
	// Once March is over, a period of whole months reads its month's
	// rollups, and counts as its days do.
	if err := db.RollUpAnalytics(ctx, time.Date(2026, 4, 1, 0, 10, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	march, err := db.AnalyticsSummary(ctx, analytics.Query{Since: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), Until: time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	twoDays, err := db.AnalyticsSummary(ctx, analytics.Query{Since: day, Until: day.Add(48 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if march.Views != 7 || march.Visitors != twoDays.Visitors || march.Visits != twoDays.Visits || march.BounceRate != twoDays.BounceRate ||
		!cmp.Equal(march.Pages, twoDays.Pages) || !cmp.Equal(march.Conversions, twoDays.Conversions) || !cmp.Equal(march.Campaigns, twoDays.Campaigns) {
		t.Errorf("March from its month's rollups: %d views, %d visitors, pages %+v, conversions %+v; the days: %d views, %d visitors, pages %+v",
			march.Views, march.Visitors, march.Pages, march.Conversions, twoDays.Views, twoDays.Visitors, twoDays.Pages)
	}
	if s, err := db.DailySalt(ctx, "2026-03-02", []byte("new")); err != nil || string(s) != "new" {
		t.Errorf("the pruned day's salt: %q, %v; want a new one", s, err)
	}
	if s, err := db.DailySalt(ctx, "2026-03-04", []byte("other")); err != nil || string(s) != "later" {
		t.Errorf("a kept day's salt: %q, %v", s, err)
	}
}
