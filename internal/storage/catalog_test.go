package storage_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"studio/internal/changes"
	"studio/internal/files"
	"studio/internal/storage"
	"studio/internal/storage/disk"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

// countingStore is a store that counts the reads of buckets and objects.
type countingStore struct {
	files.Store
	reads atomic.Int64
}

func (c *countingStore) Bucket(ctx context.Context, id string) (files.Bucket, error) {
	c.reads.Add(1)
	return c.Store.Bucket(ctx, id)
}

func (c *countingStore) Object(ctx context.Context, bucket, name string) (files.Object, error) {
	c.reads.Add(1)
	return c.Store.Object(ctx, bucket, name)
}

// server is one instance of the service over a store handle of its own,
// its catalog following that handle's feed.
type server struct {
	db    *store.DB
	reads *countingStore
	blobs *countingBlobs
	svc   *storage.Service
}

func newServer(t *testing.T, db *store.DB, dir files.Backend, feed storage.Feed) *server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() { cancel(); wg.Wait() })
	wg.Go(func() { db.FollowChanges(ctx, slog.New(slog.DiscardHandler)) })
	s := &server{db: db, reads: &countingStore{Store: db}, blobs: &countingBlobs{Backend: dir}}
	s.svc = storage.New(s.reads, s.blobs, nil, storage.Config{Feed: feed, BlobCacheBytes: 1 << 20})
	wg.Go(func() { s.svc.Follow(ctx) })
	return s
}

// get answers a request of the public file deck.md: its status and body.
func (s *server) get(method string, headers ...string) (int, string) {
	r := httptest.NewRequest(method, "/storage/v1/object/public/downloads/deck.md", nil)
	for i := 0; i+1 < len(headers); i += 2 {
		r.Header.Set(headers[i], headers[i+1])
	}
	w := httptest.NewRecorder()
	s.svc.ServeHTTP(w, r)
	return w.Code, w.Body.String()
}

// body is what a GET of deck.md answers, failing on anything but a 200.
func (s *server) body(t *testing.T) string {
	t.Helper()
	code, body := s.get("GET")
	if code != 200 {
		t.Fatalf("GET = %d %s", code, body)
	}
	return body
}

func (s *server) put(t *testing.T, body string) {
	t.Helper()
	if _, err := s.svc.PutFile(context.Background(), "downloads", "deck.md", "text/markdown", strings.NewReader(body), true); err != nil {
		t.Fatal(err)
	}
}

// warm asks for deck.md until the catalog holds it (Follow has started),
// and returns its body.
func (s *server) warm(t *testing.T) string {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		body := s.body(t)
		before := s.reads.reads.Load()
		if s.body(t) == body && s.reads.reads.Load() == before {
			return body
		}
		if time.Now().After(deadline) {
			t.Fatal("downloads still read the store after 5 s")
		}
	}
}

// readsOf counts the store reads and blob opens f makes.
func (s *server) readsOf(f func()) (reads, opens int64) {
	r, o := s.reads.reads.Load(), s.blobs.opened.Load()
	f()
	return s.reads.reads.Load() - r, s.blobs.opened.Load() - o
}

func newDownloads(t *testing.T, db *store.DB) {
	t.Helper()
	now := time.Now()
	if err := db.CreateBucket(context.Background(), files.Bucket{ID: "downloads", Public: true, CreatedAt: now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
}

// TestPublicDownloadsReadNoStore: once known, a public file is served,
// revalidated and asked for with HEAD or a range without a store read, and
// a small one without opening its blob; a replacement or a removal made on
// the same server is seen by its next request.
func TestPublicDownloadsReadNoStore(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			dir, err := disk.New(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			db := engine.New(t)
			s := newServer(t, db, dir, db)
			newDownloads(t, db)
			s.put(t, "# Deck, first version\n")
			if got := s.warm(t); got != "# Deck, first version\n" {
				t.Fatalf("body %q", got)
			}
			o, err := db.Object(context.Background(), "downloads", "deck.md")
			if err != nil {
				t.Fatal(err)
			}
			reads, opens := s.readsOf(func() {
				for _, tt := range []struct {
					method  string
					headers []string
					status  int
				}{
					{"GET", nil, 200},
					{"HEAD", nil, 200},
					{"GET", []string{"Range", "bytes=2-5"}, 206},
					{"GET", []string{"If-None-Match", o.ETag}, 304},
				} {
					if code, body := s.get(tt.method, tt.headers...); code != tt.status {
						t.Errorf("%s %v = %d %s, want %d", tt.method, tt.headers, code, body, tt.status)
					}
				}
			})
			if reads != 0 || opens != 0 {
				t.Errorf("known file: %d store reads and %d blob opens, want none", reads, opens)
			}

			s.put(t, "# Deck, second version\n")
			if got := s.body(t); got != "# Deck, second version\n" {
				t.Errorf("after a replacement: %q", got)
			}
			if _, err := s.svc.RemoveFiles(context.Background(), "downloads", []string{"deck.md"}); err != nil {
				t.Fatal(err)
			}
			if code, body := s.get("GET"); !strings.Contains(body, "Object not found") {
				t.Errorf("after a removal: %d %s, want Object not found", code, body)
			}

			s.put(t, "# Deck, third version\n")
			s.body(t)
			private := files.Bucket{ID: "downloads", UpdatedAt: time.Now()}
			if err := db.UpdateBucket(context.Background(), private); err != nil {
				t.Fatal(err)
			}
			if code, body := s.get("GET"); !strings.Contains(body, "Bucket not found") {
				t.Errorf("after the bucket was made private: %d %s, want Bucket not found", code, body)
			}
		})
	}
}

// TestReplacementReachesTheOtherServer: on PostgreSQL, a file replaced or
// removed through one server is served as it now is by the other as soon
// as the change feed has told it, with no store read before that.
func TestReplacementReachesTheOtherServer(t *testing.T) {
	cfg := storetest.Engines()[1].NewConfig(t)
	dir, err := disk.New(t.TempDir()) // one directory for both, as one S3 bucket would be
	if err != nil {
		t.Fatal(err)
	}
	dbA, dbB := storetest.MustOpen(t, cfg), storetest.MustOpen(t, cfg)
	a, b := newServer(t, dbA, dir, dbA), newServer(t, dbB, dir, dbB)
	newDownloads(t, dbA)
	b.put(t, "first")
	if got := a.warm(t); got != "first" {
		t.Fatalf("a serves %q", got)
	}
	heard := dbA.Changes().Subscribe(16)
	defer heard.Close()
	// The longest name a change carries: its news must fit PostgreSQL's
	// NOTIFY (8,000 bytes), as JSON that escapes each '<' in 6.
	long := strings.Repeat("<", storage.MaxNameBytes)
	if _, err := b.svc.PutFile(context.Background(), "downloads", long, "text/plain", strings.NewReader("long"), false); err != nil {
		t.Fatal(err)
	}
	hear(t, heard, files.ObjectChanges, "downloads", long)

	b.put(t, "second")
	hear(t, heard, files.ObjectChanges, "downloads", "deck.md")
	if got := a.body(t); got != "second" {
		t.Errorf("a serves %q after b's replacement was heard", got)
	}
	if _, err := b.svc.RemoveFiles(context.Background(), "downloads", []string{"deck.md"}); err != nil {
		t.Fatal(err)
	}
	hear(t, heard, files.ObjectChanges, "downloads", "deck.md")
	if code, body := a.get("GET"); !strings.Contains(body, "Object not found") {
		t.Errorf("a answers %d %s after b's removal was heard, want Object not found", code, body)
	}

	b.put(t, "third")
	hear(t, heard, files.ObjectChanges, "downloads", "deck.md")
	a.body(t)
	if err := dbB.UpdateBucket(context.Background(), files.Bucket{ID: "downloads", UpdatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	hear(t, heard, files.BucketChanges, "downloads")
	if code, body := a.get("GET"); !strings.Contains(body, "Bucket not found") {
		t.Errorf("a answers %d %s after b made the bucket private, want Bucket not found", code, body)
	}
}

// hear waits up to 5 s for the change of table's key on sub.
func hear(t *testing.T, sub *changes.Subscription, table string, key ...string) {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case c := <-sub.C:
			if c.Table == table && strings.Join(c.Key, "/") == strings.Join(key, "/") {
				return
			}
		case <-deadline:
			t.Fatalf("no change of %s %.40q heard in 5 s", table, key)
		}
	}
}

// switchFeed is a store's feed that the test can say is down.
type switchFeed struct {
	*store.DB
	mu      sync.Mutex
	down    bool
	changed chan struct{}
}

func (f *switchFeed) Following() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return !f.down
}

func (f *switchFeed) FollowingChanged() <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.changed == nil {
		f.changed = make(chan struct{})
	}
	return f.changed
}

func (f *switchFeed) set(down bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.down = down
	if f.changed != nil {
		close(f.changed)
		f.changed = nil
	}
}

// TestNothingStaleWhileTheFeedIsDown: two servers of one SQLite file hear
// nothing of each other, as a server of PostgreSQL hears nothing of the
// others while its feed is down. While its feed says it follows, a's
// catalog serves what it knew (which shows the catalog is read); once the
// feed is down, every download reads the store, and when the feed is back
// what a knew before is forgotten.
func TestNothingStaleWhileTheFeedIsDown(t *testing.T) {
	cfg := storetest.Engines()[0].NewConfig(t)
	dir, err := disk.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dbA, dbB := storetest.MustOpen(t, cfg), storetest.MustOpen(t, cfg)
	feed := &switchFeed{DB: dbA}
	a, b := newServer(t, dbA, dir, feed), newServer(t, dbB, dir, dbB)
	newDownloads(t, dbA)
	a.put(t, "first")
	a.warm(t)
	b.put(t, "second")
	if got := a.body(t); got != "first" {
		t.Fatalf("a serves %q: what it knew was not used", got)
	}

	feed.set(true)
	waitFor(t, func() bool { return a.body(t) == "second" }, "a to read the store once its feed is down")
	for _, v := range []string{"third", "fourth"} {
		b.put(t, v)
		reads, _ := a.readsOf(func() {
			if got := a.body(t); got != v {
				t.Errorf("feed down: a serves %q, want %q", got, v)
			}
		})
		if reads == 0 {
			t.Error("feed down: a download read no store")
		}
	}

	feed.set(false)
	waitFor(t, func() bool {
		before := a.reads.reads.Load()
		a.body(t)
		return a.reads.reads.Load() == before
	}, "a's catalog to be trusted again")
	b.put(t, "fifth")
	feed.set(true)
	feed.set(false) // an outage a did not notice in between: what it knew is gone
	waitFor(t, func() bool { return a.body(t) == "fifth" }, "a to forget what it knew before the outage")
}

// waitFor retries ok every 10 ms for up to 5 s.
func waitFor(t *testing.T, ok func() bool, what string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !ok(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited 5 s for %s", what)
		}
	}
}

// TestFeedOutageForgetsTheCatalog: on PostgreSQL, a server whose
// connections were all cut while another replaced a file (its feed missed
// the news) serves the new file once the store answers again.
func TestFeedOutageForgetsTheCatalog(t *testing.T) {
	direct := storetest.PostgresURL(t)
	proxy := storetest.NewCuttableProxy(t, direct)
	dir, err := disk.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dbA := storetest.MustOpen(t, store.Config{DatabaseURL: proxy.URL})
	dbB := storetest.MustOpen(t, store.Config{DatabaseURL: direct})
	a, b := newServer(t, dbA, dir, dbA), newServer(t, dbB, dir, dbB)
	newDownloads(t, dbB)
	b.put(t, "first")
	waitFor(t, dbA.Following, "a's feed to listen")
	a.warm(t)

	down := dbA.FollowingChanged()
	proxy.Cut()
	select {
	case <-down:
	case <-time.After(5 * time.Second):
		t.Fatal("a's feed did not notice the outage")
	}
	b.put(t, "second")
	proxy.Restore()
	waitFor(t, dbA.Following, "a's feed to listen again")
	waitFor(t, func() bool { code, _ := a.get("GET"); return code == 200 }, "a to read the store again")
	if got := a.body(t); got != "second" {
		t.Errorf("after the outage a serves %q", got)
	}
}

// TestBytesFromMemoryAnswerAsServeContent: a small file answered from
// memory has the status, header fields and body http.ServeContent gives
// the same request from the backend.
func TestBytesFromMemoryAnswerAsServeContent(t *testing.T) {
	dir, err := disk.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	db := storetest.Engines()[0].New(t)
	newDownloads(t, db)
	memory := storage.New(db, dir, nil, storage.Config{BlobCacheBytes: 1 << 20})
	backend := storage.New(db, dir, nil, storage.Config{})
	if _, err := memory.PutFile(context.Background(), "downloads", "deck.md", "text/markdown", strings.NewReader("# Deck\n"), false); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ method, query string }{{"GET", ""}, {"GET", ""}, {"HEAD", ""}, {"GET", "?download"}, {"GET", "?download=deck%20v1.md"}} {
		answer := func(svc *storage.Service) *httptest.ResponseRecorder {
			w := httptest.NewRecorder()
			svc.ServeHTTP(w, httptest.NewRequest(tt.method, "/storage/v1/object/public/downloads/deck.md"+tt.query, nil))
			return w
		}
		got, want := answer(memory), answer(backend)
		if got.Code != want.Code || got.Body.String() != want.Body.String() || fmt.Sprint(got.Header()) != fmt.Sprint(want.Header()) {
			t.Errorf("%s%s from memory: %d %v %q\nfrom the backend: %d %v %q", tt.method, tt.query,
				got.Code, got.Header(), got.Body, want.Code, want.Header(), want.Body)
		}
	}
}
