package main

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"studio/internal/analytics"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

func TestAnalyticsSummaryCommand(t *testing.T) {
	dir := t.TempDir()
	db := storetest.MustOpen(t, store.Config{DataDir: dir})
	now := time.Now()
	err := db.WriteAnalytics(context.Background(), analytics.Batch{
		Views: []analytics.View{
			{Visitor: "a", At: now.Add(-2 * time.Hour), Path: "/", Source: "news.example", Browser: "Firefox", OS: "Linux", Device: "desktop"},
			{Visitor: "a", At: now.Add(-2*time.Hour + time.Minute), Path: "/contact", Browser: "Firefox", OS: "Linux", Device: "desktop"},
			{Visitor: "b", At: now.Add(-10 * 24 * time.Hour), Path: "/old", Browser: "Safari", OS: "iOS", Device: "phone"},
		},
		Conversions: []analytics.Conversion{{Visitor: "a", At: now.Add(-2*time.Hour + 2*time.Minute), Goal: analytics.GoalContact}},
	})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()

	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"analytics", "summary", "--data", dir, "--since", "7d", "--format", "json"}, noEnv, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var sum map[string]any
	if err := json.Unmarshal(out.Bytes(), &sum); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"visitors", "visits", "views", "bounce_rate", "pages", "entry_pages", "sources", "campaigns", "browsers", "devices", "conversions", "not_counted"} {
		if _, ok := sum[key]; !ok {
			t.Errorf("the JSON has no %q: %s", key, out.String())
		}
	}
	if sum["views"] != 2.0 || sum["visitors"] != 1.0 {
		t.Errorf("the last 7 days: %v views, %v visitors; want 2 and 1 (the view of 10 days ago is outside)", sum["views"], sum["visitors"])
	}
	nc, _ := sum["not_counted"].(map[string]any)
	for _, key := range []string{"bot", "gpc", "dnt", "prefetch_not_shown", "dropped"} {
		if _, ok := nc[key]; !ok {
			t.Errorf("not_counted has no %q", key)
		}
	}

	out.Reset()
	if code := run(context.Background(), []string{"analytics", "summary", "--data", dir, "--since", "30d", "--until", "7d"}, noEnv, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for _, want := range []string{`(?m)^Views\s+1$`, `(?m)^/old\s+1\s+1\s*$`, `(?m)^contact_message_sent\s+0\s+0\s+0.0 %$`} {
		if !regexp.MustCompile(want).MatchString(out.String()) {
			t.Errorf("the table from 30 to 7 days ago has no %q:\n%s", want, out.String())
		}
	}

	for _, args := range [][]string{
		{"--format", "csv"}, {"--since", "soon"}, {"--until", "later"}, {"--since", "1d", "--until", "2d"},
	} {
		errOut.Reset()
		if code := run(context.Background(), append([]string{"analytics", "summary", "--data", dir}, args...), noEnv, &out, &errOut); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, errOut.String())
		}
	}
}

func TestAnalyticsFlags(t *testing.T) {
	for _, bad := range [][]string{{"--analytics", "maybe"}, {"--analytics-retention", "0"}} {
		var errOut bytes.Buffer
		code := run(context.Background(), append([]string{"serve", "--addr", "127.0.0.1:0", "--data", t.TempDir()}, bad...), noEnv, &bytes.Buffer{}, &errOut)
		if code != 1 || !strings.Contains(errOut.String(), bad[0]) {
			t.Errorf("%v: exit %d, %q; want 1 naming the flag", bad, code, errOut.String())
		}
	}
}
