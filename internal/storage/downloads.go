package storage

import (
	"context"
	"sync"
	"time"

	"studio/internal/api"
	"studio/internal/files"
)

// downloadCounter counts the downloads of public objects in memory, so
// that a download costs no write; CountDownloads writes the counts in
// batches.
type downloadCounter struct {
	mu     sync.Mutex
	counts map[files.ObjectName]int64
}

func (c *downloadCounter) add(n files.ObjectName) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.counts == nil {
		c.counts = map[files.ObjectName]int64{}
	}
	c.counts[n]++
}

// take returns the counts so far and starts again from none.
func (c *downloadCounter) take() map[files.ObjectName]int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	counts := c.counts
	c.counts = nil
	return counts
}

// putBack adds counts that could not be written to those counted since.
func (c *downloadCounter) putBack(counts map[files.ObjectName]int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.counts == nil {
		c.counts = map[files.ObjectName]int64{}
	}
	for n, v := range counts {
		c.counts[n] += v
	}
}

// CountDownloads writes the downloads counted in memory to the store every
// interval until ctx ends, then once more; counts the store could not take
// wait for the next write.
func (s *Service) CountDownloads(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			s.FlushDownloads(context.WithoutCancel(ctx))
			return
		case <-t.C:
			s.FlushDownloads(ctx)
		}
	}
}

// FlushDownloads writes the downloads counted so far to the store.
func (s *Service) FlushDownloads(ctx context.Context) {
	counts := s.downloads.take()
	if len(counts) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, api.StoreTimeout)
	defer cancel()
	if err := s.store.CountDownloads(ctx, counts); err != nil {
		s.cfg.Logger.Warn("storage: download counts not written yet", "objects", len(counts), "err", err)
		s.downloads.putBack(counts)
	}
}
