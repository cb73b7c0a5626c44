package analytics

import (
	"context"
	"sync"
	"time"

	"github.com/medama-io/go-useragent"
	"github.com/medama-io/go-useragent/agents"
	"github.com/phuslu/iploc"
)

// Store keeps what a Counter counts (package store, on either engine).
type Store interface {
	// DailySalt returns the salt of day, storing candidate when the day
	// has none yet: every instance gets the first one stored.
	DailySalt(ctx context.Context, day string, candidate []byte) ([]byte, error)
	// WriteAnalytics writes b in one transaction, each view joining its
	// visitor's visit (or starting one) and each conversion the visit.
	WriteAnalytics(ctx context.Context, b Batch) error
	// RollUpAnalytics rolls up each UTC day over at now (its hours and its
	// counts per value, kept for years), and today so far.
	RollUpAnalytics(ctx context.Context, now time.Time) error
	// PruneAnalytics deletes the views, visits and conversions of the days
	// before rawBefore's that are rolled up, and the salts of days before
	// saltsFrom.
	PruneAnalytics(ctx context.Context, rawBefore time.Time, saltsFrom string) error
}

// Run writes what the counter buffered at most every cfg.Every, until ctx
// ends; then it writes what is left. A flush is never cut short by ctx (a
// stop during one would drop its events): each takes at most flushTimeout.
func (c *Counter) Run(ctx context.Context) {
	tick := time.NewTicker(c.cfg.Every)
	defer tick.Stop()
	var f flusher
	var lastRollUp, lastPrune time.Time
	for {
		select {
		case <-ctx.Done():
			c.flush(ctx, &f)
			return
		case <-tick.C:
			c.flush(ctx, &f)
			now := c.cfg.Now()
			if now.Sub(lastRollUp) < rollUpEvery {
				continue
			}
			lastRollUp = now
			if err := c.store.RollUpAnalytics(ctx, now); err != nil {
				c.cfg.Logger.Warn("analytics: rolling up failed; tried again in 5 minutes", "err", err)
				continue
			}
			if now.Sub(lastPrune) >= time.Hour {
				c.prune(ctx, now)
				lastPrune = now
			}
		}
	}
}

// flusher is what one Run keeps between flushes: the salts it has read,
// the user agent parser (built on first need, ~90 ms, so not at start) and
// a batch the store refused, tried again at the next flush.
type flusher struct {
	salts   map[string][]byte
	parser  *useragent.Parser
	retry   *Batch
	tries   int
	written time.Time // the last write
}

// maxTries is how many flushes a batch the store refuses is tried in;
// then it is dropped (and tallied as dropped).
const maxTries = 30

// flushTimeout bounds one flush's reads and writes of the store.
const flushTimeout = 10 * time.Second

var parserOnce = sync.OnceValue(useragent.NewParser)

func (c *Counter) flush(ctx context.Context, f *flusher) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), flushTimeout)
	defer cancel()
	now := c.cfg.Now()
	b := f.retry
	if b == nil {
		b = &Batch{NotCounted: map[DayReason]int64{}}
	}
	day := dayOf(now)
	tally := func(r Reason, n int64) {
		if n > 0 {
			b.NotCounted[DayReason{day, r}] += n
		}
	}
	tally(ReasonDropped, c.dropped.Swap(0))
	tally(ReasonGPC, c.optOuts[0].Swap(0))
	tally(ReasonDNT, c.optOuts[1].Swap(0))
	tally(ReasonPrefetchNotShown, c.expire(now))
	for drained := false; !drained; {
		select {
		case e := <-c.events:
			if err := c.take(ctx, f, b, e); err != nil {
				c.cfg.Logger.Warn("analytics: no salt; an event is dropped", "err", err)
				b.NotCounted[DayReason{dayOf(e.at), ReasonDropped}]++
			}
		default:
			drained = true
		}
	}
	if len(b.Views) == 0 && len(b.Conversions) == 0 && len(b.NotCounted) == 0 && now.Sub(f.written) < time.Minute {
		return // nothing to write, and visitors now was told of less than a minute ago
	}
	b.At = now
	if err := c.store.WriteAnalytics(ctx, *b); err != nil {
		f.tries++
		if f.tries < maxTries {
			f.retry = b
			return
		}
		c.cfg.Logger.Error("analytics: the store refused the counts; they are dropped", "err", err,
			"views", len(b.Views), "conversions", len(b.Conversions))
		c.dropped.Add(int64(len(b.Views) + len(b.Conversions)))
	}
	f.retry, f.tries, f.written = nil, 0, now
}

// take turns e into a view or conversion of b, or a tally of a bot.
func (c *Counter) take(ctx context.Context, f *flusher, b *Batch, e event) error {
	if f.parser == nil {
		f.parser = parserOnce()
	}
	ua := f.parser.Parse(e.userAgent)
	if e.userAgent == "" || ua.IsBot() {
		b.NotCounted[DayReason{dayOf(e.at), ReasonBot}]++
		return nil
	}
	salt, err := c.salt(ctx, f, dayOf(e.at))
	if err != nil {
		return err
	}
	visitor := visitorHash(salt, c.cfg.Site, e.addr, e.userAgent)
	if e.goal != "" {
		b.Conversions = append(b.Conversions, Conversion{Visitor: visitor, At: e.at, Goal: e.goal})
		return nil
	}
	source := e.source
	if source == "" {
		source = e.campaign.Source
	}
	b.Views = append(b.Views, View{Visitor: visitor, At: e.at, Path: e.path, Source: source, Campaign: e.campaign,
		Browser: string(ua.Browser()), OS: string(ua.OS()), Device: deviceClass(ua.Device()), Country: iploc.IPCountry(e.addr)})
	return nil
}

// deviceClass names a device as the console shows it.
func deviceClass(d agents.Device) string {
	switch d {
	case agents.DeviceMobile:
		return "phone"
	case agents.DeviceTablet:
		return "tablet"
	case agents.DeviceTV:
		return "tv"
	case agents.DeviceDesktop:
		return "desktop"
	}
	return ""
}

func (c *Counter) salt(ctx context.Context, f *flusher, day string) ([]byte, error) {
	if s, ok := f.salts[day]; ok {
		return s, nil
	}
	s, err := c.store.DailySalt(ctx, day, newSalt())
	if err != nil {
		return nil, err
	}
	if f.salts == nil || len(f.salts) > 3 {
		f.salts = map[string][]byte{} // yesterday's and today's are all a flush needs
	}
	f.salts[day] = s
	return s, nil
}

// rollUpEvery is how often the counts are rolled up: today's rollups (what
// the console reads) lag the views by a few minutes at most; the last
// minutes are read from the raw rows.
const rollUpEvery = 5 * time.Minute

// prune deletes raw counts older than the retention (once rolled up), and
// every salt but today's and yesterday's.
func (c *Counter) prune(ctx context.Context, now time.Time) {
	yesterday := dayOf(now.AddDate(0, 0, -1))
	if err := c.store.PruneAnalytics(ctx, now.Add(-c.cfg.Retention), yesterday); err != nil {
		c.cfg.Logger.Warn("analytics: pruning failed; tried again in an hour", "err", err)
	}
}
