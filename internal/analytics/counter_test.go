package analytics_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"studio/internal/analytics"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

const (
	firefox   = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
	iphone    = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"
	googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
)

var (
	ada = netip.MustParseAddr("203.0.113.7")
	bo  = netip.MustParseAddr("2001:db8::42")
)

// clock is a test's time, moved by hand.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

// running is a counter whose Run a test stops to have everything written.
type running struct {
	*analytics.Counter
	stop func()
}

func start(t *testing.T, db analytics.Store, clk *clock, cfg analytics.Config) *running {
	t.Helper()
	cfg.Site, cfg.Now = "https://studio.example", clk.Now
	c := analytics.New(db, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); c.Run(ctx) }()
	var once sync.Once
	stop := func() { once.Do(func() { cancel(); <-done }) }
	t.Cleanup(stop)
	return &running{c, stop}
}

// page is a visitor's request for a page of the site.
func page(path, userAgent string, header ...string) *http.Request {
	r := httptest.NewRequest(http.MethodGet, "http://studio.example"+path, nil)
	r.Header.Set("User-Agent", userAgent)
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	return r
}

// seen is the request a shown page makes for analytics.SeenPath.
func seen(pageURL, userAgent string, header ...string) *http.Request {
	return page(analytics.SeenPath, userAgent, append([]string{"Referer", pageURL}, header...)...)
}

func show(t *testing.T, c *running, r *http.Request, addr netip.Addr) {
	t.Helper()
	w := httptest.NewRecorder()
	c.Seen(w, r, addr)
	if w.Code != http.StatusOK || w.Header().Get("Content-Type") != "image/gif" || w.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("%s answered %d %v", r.URL, w.Code, w.Header())
	}
}

func summary(t *testing.T, db *store.DB, clk *clock) analytics.Summary {
	t.Helper()
	sum, err := db.AnalyticsSummary(context.Background(), analytics.Query{Since: clk.Now().Add(-24 * time.Hour), Until: clk.Now().Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

func TestCountsPagesShown(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			cfg := engine.NewConfig(t)
			db := storetest.MustOpen(t, cfg)
			clk := &clock{now: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)}
			c := start(t, db, clk, analytics.Config{})

			// Ada comes from a post, with a campaign, and reads two pages.
			c.Served(page("/?utm_source=news&utm_medium=social&utm_campaign=launch", firefox, "Referer", "https://www.news.example/post/1"), ada)
			show(t, c, seen("http://studio.example/?utm_source=news&utm_medium=social&utm_campaign=launch", firefox), ada)
			clk.Add(time.Minute)
			c.Served(page("/about", firefox, "Referer", "http://studio.example/"), ada)
			show(t, c, seen("http://studio.example/about/", firefox), ada)
			// She hovers a link (prefetched, then shown) and another (never shown).
			c.Served(page("/contact", firefox, "Sec-Purpose", "prefetch", "Referer", "http://studio.example/about"), ada)
			c.Served(page("/products", firefox, "Sec-Purpose", "prefetch", "Referer", "http://studio.example/about"), ada)
			show(t, c, seen("http://studio.example/contact", firefox), ada)
			// Then she sends a message.
			c.Converted(page("/functions/v1/submit-contact", firefox), ada, analytics.GoalContact)

			// Bo on a phone, directly; Bo's HEAD, a console page, another
			// site's page and a request with no page are not views.
			show(t, c, seen("http://studio.example/products/aurion", iphone), bo)
			head := seen("http://studio.example/products", iphone)
			head.Method = http.MethodHead
			show(t, c, head, bo)
			show(t, c, seen("http://studio.example/admin/inbox", iphone), bo)
			show(t, c, seen("https://elsewhere.example/", iphone), bo)
			show(t, c, page(analytics.SeenPath, iphone), bo)

			// Not counted: a bot, Global Privacy Control, Do Not Track.
			show(t, c, seen("http://studio.example/", googlebot), bo)
			show(t, c, seen("http://studio.example/", firefox, "Sec-GPC", "1"), bo)
			show(t, c, seen("http://studio.example/", firefox, "DNT", "1"), bo)
			c.Converted(page("/functions/v1/join-waitlist", firefox, "DNT", "1"), bo, analytics.GoalWaitlist)

			clk.Add(6 * time.Minute) // the unshown prefetch expires at the next flush
			time.Sleep(1500 * time.Millisecond)
			c.stop()

			sum := summary(t, db, clk)
			if sum.Visitors != 2 || sum.Visits != 2 || sum.Views != 4 {
				t.Errorf("visitors %d, visits %d, views %d; want 2, 2, 4", sum.Visitors, sum.Visits, sum.Views)
			}
			wantPages := map[string]int64{"/": 1, "/about": 1, "/contact": 1, "/products/aurion": 1}
			for _, p := range sum.Pages {
				if wantPages[p.Path] != p.Views {
					t.Errorf("page %s: %d views; want %d", p.Path, p.Views, wantPages[p.Path])
				}
			}
			if len(sum.Pages) != len(wantPages) {
				t.Errorf("pages %+v; want %v", sum.Pages, wantPages)
			}
			if want := []analytics.SourceCount{{Source: analytics.Direct, Visitors: 1}, {Source: "news.example", Visitors: 1}}; !equal(sum.Sources, want) {
				t.Errorf("sources %+v; want %+v", sum.Sources, want)
			}
			if want := []analytics.CampaignRow{{Source: "news", Medium: "social", Name: "launch", Visitors: 1}}; !equal(sum.Campaigns, want) {
				t.Errorf("campaigns %+v; want %+v", sum.Campaigns, want)
			}
			if want := []analytics.Count{{Value: "desktop", Visitors: 1}, {Value: "phone", Visitors: 1}}; !equal(sum.Devices, want) {
				t.Errorf("devices %+v; want %+v", sum.Devices, want)
			}
			if g := sum.Conversions[0]; g.Goal != analytics.GoalContact || g.Count != 1 || g.Visitors != 1 || g.Rate != 0.5 {
				t.Errorf("contact conversions %+v; want 1 by 1 visitor of 2", g)
			}
			if g := sum.Conversions[1]; g.Count != 0 {
				t.Errorf("a waitlist joined with DNT was counted: %+v", g)
			}
			if want := (analytics.NotCounted{Bot: 1, GPC: 1, DNT: 1, PrefetchNotShown: 1}); sum.NotCounted != want {
				t.Errorf("not counted %+v; want %+v", sum.NotCounted, want)
			}

			// The entry page is the post's landing page, and the contact
			// conversion belongs to the visit the post began.
			if len(sum.EntryPages) != 2 || sum.EntryPages[0].Path != "/" && sum.EntryPages[1].Path != "/" {
				t.Errorf("entry pages %+v; want / among them", sum.EntryPages)
			}

			// Nothing that names a visitor is in the store's files, or in a
			// dump of PostgreSQL.
			secrets := []string{ada.String(), bo.String(), firefox, iphone, "Firefox/128.0", "Version/17.0"}
			if cfg.DataDir != "" {
				assertNotStored(t, cfg.DataDir, secrets...)
			} else {
				dump := pgDump(t, cfg.DatabaseURL)
				for _, s := range secrets {
					if bytes.Contains(dump, []byte(s)) {
						t.Errorf("pg_dump holds %q", s)
					}
				}
				if !bytes.Contains(dump, []byte("/products/aurion")) {
					t.Error("pg_dump holds no view: is it the store's dump?")
				}
			}
		})
	}
}

func equal[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// assertNotStored fails when any file under dir holds any of secrets.
func assertNotStored(t *testing.T, dir string, secrets ...string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, s := range secrets {
			if bytes.Contains(b, []byte(s)) {
				t.Errorf("%s holds %q", path, s)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Two instances of the studio on one store count one site: the same
// visitor, seen by both, is one visitor in one visit.
func TestTwoInstancesCountOneSite(t *testing.T) {
	cfg := storetest.Engines()[1].NewConfig(t)
	one, two := storetest.MustOpen(t, cfg), storetest.MustOpen(t, cfg)
	clk := &clock{now: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)}
	a, b := start(t, one, clk, analytics.Config{}), start(t, two, clk, analytics.Config{})
	show(t, a, seen("http://studio.example/", firefox), ada)
	a.stop()
	clk.Add(time.Minute)
	show(t, b, seen("http://studio.example/about", firefox), ada)
	b.stop()
	sum := summary(t, one, clk)
	if sum.Visitors != 1 || sum.Visits != 1 || sum.Views != 2 {
		t.Errorf("visitors %d, visits %d, views %d; want 1, 1, 2", sum.Visitors, sum.Visits, sum.Views)
	}
}

// A full buffer drops views, tallied, rather than wait.
func TestFullBufferDrops(t *testing.T) {
	db := storetest.Engines()[0].New(t)
	clk := &clock{now: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)}
	c := start(t, db, clk, analytics.Config{Buffer: 2, Every: time.Hour})
	for range 5 {
		show(t, c, seen("http://studio.example/", firefox), ada)
	}
	c.stop()
	sum := summary(t, db, clk)
	if sum.Views != 2 || sum.NotCounted.Dropped != 3 {
		t.Errorf("views %d, dropped %d; want 2 and 3", sum.Views, sum.NotCounted.Dropped)
	}
}

// slowSalt is a store whose DailySalt waits until released: a flush under
// way when the studio stops.
type slowSalt struct {
	*store.DB
	asked, release chan struct{}
}

func (s slowSalt) DailySalt(ctx context.Context, day string, candidate []byte) ([]byte, error) {
	close(s.asked)
	<-s.release
	return s.DB.DailySalt(ctx, day, candidate)
}

// Stopping while a flush waits for the store loses nothing: the flush
// finishes its writes before Run returns.
func TestStopDuringAFlushLosesNothing(t *testing.T) {
	db := storetest.Engines()[0].New(t)
	clk := &clock{now: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)}
	slow := slowSalt{db, make(chan struct{}), make(chan struct{})}
	c := start(t, slow, clk, analytics.Config{Every: 10 * time.Millisecond})
	show(t, c, seen("http://studio.example/", firefox), ada)
	<-slow.asked
	stopped := make(chan struct{})
	go func() { defer close(stopped); c.stop() }()
	time.Sleep(50 * time.Millisecond) // the stop is under way
	close(slow.release)
	<-stopped
	sum := summary(t, db, clk)
	if sum.Views != 1 || sum.NotCounted.Dropped != 0 {
		t.Errorf("views %d, dropped %d; want 1 and 0", sum.Views, sum.NotCounted.Dropped)
	}
}

// Days that are over are rolled up, and their raw rows pruned after the
// retention: the day still counts, and filters say where they begin.
func TestDaysOverAreRolledUp(t *testing.T) {
	db := storetest.Engines()[0].New(t)
	day := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	clk := &clock{now: day.Add(9 * time.Hour)}
	c := start(t, db, clk, analytics.Config{Retention: 24 * time.Hour})
	show(t, c, seen("http://studio.example/about", firefox), ada)
	time.Sleep(1500 * time.Millisecond) // written, and the first prune finds nothing to roll up
	c.stop()

	clk.Add(48 * time.Hour)
	c = start(t, db, clk, analytics.Config{Retention: 24 * time.Hour})
	q := analytics.Query{Since: day, Until: day.Add(24 * time.Hour)}
	q.Filters.Device = "desktop"
	// The first tick rolls up and prunes; a loaded machine may take seconds.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		sum, err := db.AnalyticsSummary(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if sum.FiltersFrom != nil || time.Now().After(deadline) {
			break
		}
	}
	c.stop()
	q.Filters.Device = ""
	sum, err := db.AnalyticsSummary(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Views != 1 || len(sum.Pages) != 1 || sum.Pages[0].Path != "/about" {
		t.Errorf("the rolled-up day: %d views, pages %+v; want 1 view of /about", sum.Views, sum.Pages)
	}
	q.Filters.Device = "desktop"
	if sum, err = db.AnalyticsSummary(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	if want := day.Add(24 * time.Hour); sum.Views != 0 || sum.FiltersFrom == nil || !sum.FiltersFrom.Equal(want) {
		t.Errorf("filtered, after pruning: %d views, filters from %v; want none, from %v", sum.Views, sum.FiltersFrom, want)
	}
}

// What a request names is kept only without control characters and at a
// bounded length: PostgreSQL refuses NUL in text, and would refuse the
// whole batch of views with it.
func TestRequestValuesAreCleaned(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			db := engine.New(t)
			clk := &clock{now: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)}
			c := start(t, db, clk, analytics.Config{})
			show(t, c, seen("http://studio.example/?utm_source=a%00b%09c&utm_campaign="+strings.Repeat("x", 300), firefox), ada)
			show(t, c, seen("http://studio.example/a%00b", firefox), ada)
			show(t, c, seen("http://studio.example/"+strings.Repeat("long", 100), firefox), ada)
			c.stop()
			sum := summary(t, db, clk)
			want := []analytics.CampaignRow{{Source: "abc", Name: strings.Repeat("x", 100), Visitors: 1}}
			if sum.Views != 1 || !equal(sum.Campaigns, want) {
				t.Errorf("views %d, campaigns %+v; want 1 view, campaign %+v", sum.Views, sum.Campaigns, want)
			}
		})
	}
}

// pgDump is a dump of the PostgreSQL database at dsn.
func pgDump(t *testing.T, dsn string) []byte {
	t.Helper()
	dumps, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_dump")
	if len(dumps) == 0 {
		t.Fatal("no pg_dump in /usr/lib/postgresql/*/bin")
	}
	out, err := exec.Command(dumps[len(dumps)-1], "--no-owner", dsn).Output()
	if err != nil {
		t.Fatalf("pg_dump: %v", err)
	}
	return out
}
