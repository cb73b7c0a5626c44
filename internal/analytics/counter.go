package analytics

import (
	"hash/maphash"
	"log/slog"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Config is how a Counter counts.
type Config struct {
	// Site names the site in every visitor's hash (the --site-url).
	Site string
	// Retention is how long raw views and visits are kept (--analytics-retention).
	Retention time.Duration
	// Buffer is how many events may wait for the next flush; more are
	// dropped (and tallied as dropped). 0 means 1<<16.
	Buffer int
	// Every is the time between flushes; 0 means a second.
	Every  time.Duration
	Logger *slog.Logger
	Now    func() time.Time // time.Now when nil
}

// Counter counts pages shown and goals reached. Its methods never wait
// for the store: Run writes what they buffered.
type Counter struct {
	cfg    Config
	store  Store
	events chan event

	mu      sync.Mutex
	pending map[uint64]pendingPage // pages served, until shown (or expired)
	seed    maphash.Seed

	dropped atomic.Int64 // events the full buffer refused, since the last flush
	optOuts [2]atomic.Int64
}

// pendingPage is a page served to a visitor and not yet shown: where they
// came from, which only the page's own request knows (SeenPath's referrer
// is the page), and whether it was a prefetch.
type pendingPage struct {
	source   string
	prefetch bool
	at       time.Time
}

// pendingLimit bounds the pages remembered between their request and their
// showing; beyond it a page's source is not remembered.
const pendingLimit = 1 << 16

// pendingFor is how long a served page waits to be shown: Chrome keeps a
// prefetched page five minutes.
const pendingFor = 5 * time.Minute

// New returns a Counter writing to s; start it with Run.
func New(s Store, cfg Config) *Counter {
	if cfg.Buffer <= 0 {
		cfg.Buffer = 1 << 16
	}
	if cfg.Retention <= 0 {
		cfg.Retention = 30 * 24 * time.Hour
	}
	if cfg.Every <= 0 {
		cfg.Every = time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Counter{cfg: cfg, store: s, events: make(chan event, cfg.Buffer),
		pending: make(map[uint64]pendingPage), seed: maphash.MakeSeed()}
}

// pageKey identifies a visitor's page in memory only, under a seed that
// never leaves the process.
func (c *Counter) pageKey(addr netip.Addr, userAgent, path string) uint64 {
	var h maphash.Hash
	h.SetSeed(c.seed)
	a := addr.As16()
	h.Write(a[:])
	h.WriteString(userAgent)
	h.WriteByte(0)
	h.WriteString(path)
	return h.Sum64()
}

// Served notes a public page answered to the client at addr, when what
// only its request knows will be needed once it is shown: the site that
// referred the visitor, or that it was a prefetch.
func (c *Counter) Served(r *http.Request, addr netip.Addr) {
	if r.Method != http.MethodGet || !isPublicPage(r.URL.Path) {
		return
	}
	source, prefetch := externalSource(r), isPrefetch(r)
	if source == "" && !prefetch {
		return // the common case: nothing to remember
	}
	key := c.pageKey(addr, r.UserAgent(), canonicalPath(r.URL.Path))
	c.mu.Lock()
	if len(c.pending) < pendingLimit {
		c.pending[key] = pendingPage{source: source, prefetch: prefetch, at: c.cfg.Now()}
	}
	c.mu.Unlock()
}

// Seen answers SeenPath, the request a page makes once it is shown, and
// counts the view.
func (c *Counter) Seen(w http.ResponseWriter, r *http.Request, addr netip.Addr) {
	WritePixel(w, r)
	page, ok := shownPage(r)
	if r.Method != http.MethodGet || !ok {
		return
	}
	ua := r.UserAgent()
	c.mu.Lock()
	key := c.pageKey(addr, ua, page.Path)
	served := c.pending[key]
	delete(c.pending, key)
	c.mu.Unlock()
	if reason := optedOut(r); reason != "" {
		c.tallyOptOut(reason)
		return
	}
	c.add(event{at: c.cfg.Now(), path: page.Path, source: served.source,
		campaign: campaignOf(page.Query()), addr: addr, userAgent: ua})
}

// WritePixel answers SeenPath: a transparent pixel, never cached, so that
// a page shown again fetches it again.
func WritePixel(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "image/gif")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Length", strconv.Itoa(len(pixel)))
	if r.Method != http.MethodHead {
		_, _ = w.Write(pixel)
	}
}

// Converted counts goal, reached by the client at addr.
func (c *Counter) Converted(r *http.Request, addr netip.Addr, goal Goal) {
	if optedOut(r) != "" {
		return // tallied once, with its views
	}
	c.add(event{at: c.cfg.Now(), goal: goal, addr: addr, userAgent: r.UserAgent()})
}

// add buffers e for the next flush, or drops it when the buffer is full.
func (c *Counter) add(e event) {
	select {
	case c.events <- e:
	default:
		c.dropped.Add(1)
	}
}

func (c *Counter) tallyOptOut(r Reason) {
	if r == ReasonGPC {
		c.optOuts[0].Add(1)
	} else {
		c.optOuts[1].Add(1)
	}
}

// expire forgets pages served longer than pendingFor ago and returns how
// many of them were prefetches never shown.
func (c *Counter) expire(now time.Time) (notShown int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, p := range c.pending {
		if now.Sub(p.at) > pendingFor {
			if p.prefetch {
				notShown++
			}
			delete(c.pending, k)
		}
	}
	return notShown
}
