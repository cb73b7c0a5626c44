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
			Conversions: []analytics.Conversion{{Visitor: "ada", At: at(6), Goal: analytics.GoalContact}},
			NotCounted:  map[analytics.DayReason]int64{{Day: "2026-03-02", Reason: analytics.ReasonBot}: 1, {Day: "2026-03-02", Reason: analytics.ReasonGPC}: 2}},
		// 40 minutes later: a second visit.
		{Views: []analytics.View{ada(45, "/resources")}},
	}
	for _, b := range batches {
		if err := db.WriteAnalytics(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	sum, err := db.AnalyticsSummary(ctx, day, day.Add(24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	want := analytics.Summary{
		Since: day, Until: day.Add(24 * time.Hour),
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
	}
	for _, g := range analytics.Goals {
		c := analytics.GoalCount{Goal: g}
		if g == analytics.GoalContact {
			c = analytics.GoalCount{Goal: g, Count: 1, Visitors: 1, Rate: 0.5}
		}
		want.Conversions = append(want.Conversions, c)
	}
	if diff := cmp.Diff(want, sum); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}

	// The next day's summary holds none of it.
	next, err := db.AnalyticsSummary(ctx, day.Add(24*time.Hour), day.Add(48*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if next.Views != 0 || next.Visits != 0 || next.NotCounted != (analytics.NotCounted{}) {
		t.Errorf("the next day counts %+v", next)
	}

	// Pruning: raw rows before the cut go, and the salts of older days.
	if _, err := db.DailySalt(ctx, "2026-03-04", []byte("later")); err != nil {
		t.Fatal(err)
	}
	if err := db.PruneAnalytics(ctx, at(30), "2026-03-03"); err != nil {
		t.Fatal(err)
	}
	sum, err = db.AnalyticsSummary(ctx, day, day.Add(24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if sum.Visits != 1 || sum.Views != 1 || sum.Conversions[0].Count != 0 {
		t.Errorf("after pruning: %d visits, %d views, %d contact conversions; want 1, 1, 0", sum.Visits, sum.Views, sum.Conversions[0].Count)
	}
	if s, err := db.DailySalt(ctx, "2026-03-02", []byte("new")); err != nil || string(s) != "new" {
		t.Errorf("the pruned day's salt: %q, %v; want a new one", s, err)
	}
	if s, err := db.DailySalt(ctx, "2026-03-04", []byte("other")); err != nil || string(s) != "later" {
		t.Errorf("a kept day's salt: %q, %v", s, err)
	}
}
