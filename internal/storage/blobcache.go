package storage

import (
	"bytes"
	"container/list"
	"context"
	"io"
	"sync"

	"studio/internal/files"
)

// MaxCachedBlob is the largest blob whose bytes a download keeps in
// memory; a bigger one is read from the backend each time (the directory
// backend's by sendfile(2)).
const MaxCachedBlob = 256 << 10

// blobCache keeps the bytes of small blobs that downloads read, by key, up
// to max bytes in all, the least recently read going first. A blob never
// changes once written (a new upload is a new key), so nothing it holds is
// ever stale: a replaced or removed object's old blob is no longer asked
// for (the catalog forgets its row) and ages out. It spares a download
// from the S3 backend its round trip, and one from the directory its
// open, seeks, read and close.
type blobCache struct {
	mu    sync.Mutex
	max   int64
	size  int64
	order *list.List // of *cachedBlob, the most recently read first
	blobs map[string]*list.Element
}

type cachedBlob struct {
	key   string
	bytes []byte
}

func newBlobCache(max int64) *blobCache {
	return &blobCache{max: max, order: list.New(), blobs: map[string]*list.Element{}}
}

func (c *blobCache) get(key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.blobs[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*cachedBlob).bytes, true
}

func (c *blobCache) put(key string, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.blobs[key]; ok || int64(len(b)) > c.max {
		return
	}
	c.blobs[key] = c.order.PushFront(&cachedBlob{key: key, bytes: b})
	c.size += int64(len(b))
	for c.size > c.max {
		last := c.order.Back()
		old := c.order.Remove(last).(*cachedBlob)
		delete(c.blobs, old.key)
		c.size -= int64(len(old.bytes))
	}
}

// openBlob opens the blob of o: from the cache when it is there, else from
// the backend, kept in the cache when it is small enough. whole is its
// bytes when they are in memory.
func (s *Service) openBlob(ctx context.Context, o files.Object) (f io.ReadSeekCloser, whole []byte, err error) {
	if s.blobs == nil || o.Size > MaxCachedBlob {
		f, err = s.backend.Open(ctx, o.Key)
		return f, nil, err
	}
	if b, ok := s.blobs.get(o.Key); ok {
		return nopCloser{bytes.NewReader(b)}, b, nil
	}
	if f, err = s.backend.Open(ctx, o.Key); err != nil {
		return nil, nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxCachedBlob+1))
	if err != nil {
		return nil, nil, err
	}
	if int64(len(b)) == o.Size { // else not the blob its row says: serve it, keep it not
		s.blobs.put(o.Key, b)
	}
	return nopCloser{bytes.NewReader(b)}, b, nil
}

type nopCloser struct{ io.ReadSeeker }

func (nopCloser) Close() error { return nil }
