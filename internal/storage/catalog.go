package storage

import (
	"context"
	"sync"

	"studio/internal/api"
	"studio/internal/changes"
	"studio/internal/files"
)

// maxCatalogObjects bounds the objects a catalog knows: a few megabytes
// of metadata at most (a name is at most MaxNameBytes).
const maxCatalogObjects = 10_000

// catalog is what this server knows of buckets and objects, so that a
// download (of a public file, above all) reads no store: the metadata of
// those found, copied from the store when first asked for. It forgets a
// bucket or an object when the store's change feed says it changed: this
// server's own commits before their write returns (changes.Bus.Watch), the
// other servers' as PostgreSQL delivers them. While the feed does not
// follow every server's changes (a lost LISTEN connection), the catalog is
// not trusted: each lookup reads the store, and what it knew before is
// forgotten, so that nothing stale is ever served. Until follow runs it is
// not trusted either (a command of the CLI, a test without a feed).
type catalog struct {
	mu      sync.RWMutex
	trusted bool
	// gen counts the forgettings: a lookup keeps what it read only if
	// nothing was forgotten while it read (it may have read the old row).
	gen     uint64
	buckets map[string]files.Bucket
	objects map[files.ObjectName]files.Object
}

// watch has the catalog forget what changes on bus.
func (c *catalog) watch(bus *changes.Bus) { bus.Watch(c.changed) }

// follow trusts the catalog while feed follows every server's changes,
// until ctx ends; each time the feed stops or starts again it forgets all.
func (c *catalog) follow(ctx context.Context, feed changes.Feed) {
	defer c.reset(false)
	for {
		changed := feed.FollowingChanged() // before Following: no change falls between
		c.reset(feed.Following())
		select {
		case <-ctx.Done():
			return
		case <-changed:
		}
	}
}

func (c *catalog) reset(trusted bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.trusted = trusted
	c.gen++
	c.buckets, c.objects = nil, nil
}

// changed forgets what the change ch is of: a bucket with all its objects
// (the change of an emptied bucket names none of them), or an object.
func (c *catalog) changed(ch changes.Change) {
	var object files.ObjectName
	switch {
	case ch.Table == files.BucketChanges && len(ch.Key) == 1:
	case ch.Table == files.ObjectChanges && len(ch.Key) == 2:
		object = files.ObjectName{Bucket: ch.Key[0], Name: ch.Key[1]}
	default:
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	if object.Bucket == "" {
		c.buckets, c.objects = nil, nil // buckets change seldom
		return
	}
	delete(c.objects, object)
}

// bucket is the bucket id, from the catalog when trusted, else the store's
// (read within api.StoreTimeout).
func (c *catalog) bucket(ctx context.Context, st files.Store, id string) (files.Bucket, error) {
	c.mu.RLock()
	b, ok := c.buckets[id]
	trusted, gen := c.trusted, c.gen
	c.mu.RUnlock()
	if ok {
		return b, nil
	}
	ctx, cancel := context.WithTimeout(ctx, api.StoreTimeout)
	defer cancel()
	b, err := st.Bucket(ctx, id)
	if err == nil && trusted {
		c.keep(gen, func() {
			if c.buckets == nil {
				c.buckets = map[string]files.Bucket{}
			}
			c.buckets[id] = b
		})
	}
	return b, err
}

// object is the object name of bucket, from the catalog when trusted, else
// the store's, read as bucket does (and kept without its user metadata,
// which no download sends).
func (c *catalog) object(ctx context.Context, st files.Store, bucket, name string) (files.Object, error) {
	key := files.ObjectName{Bucket: bucket, Name: name}
	c.mu.RLock()
	o, ok := c.objects[key]
	trusted, gen := c.trusted, c.gen
	c.mu.RUnlock()
	if ok {
		return o, nil
	}
	ctx, cancel := context.WithTimeout(ctx, api.StoreTimeout)
	defer cancel()
	o, err := st.Object(ctx, bucket, name)
	if err == nil && trusted {
		kept := o
		kept.UserMetadata = nil
		c.keep(gen, func() {
			if c.objects == nil {
				c.objects = map[files.ObjectName]files.Object{}
			}
			if len(c.objects) >= maxCatalogObjects {
				for k := range c.objects { // one at random makes room
					delete(c.objects, k)
					break
				}
			}
			c.objects[key] = kept
		})
	}
	return o, err
}

// forget forgets the object name of bucket: its blob was not found, so its
// row has changed (a replacement whose news has not come yet).
func (c *catalog) forget(bucket, name string) {
	c.changed(changes.Change{Table: files.ObjectChanges, Key: []string{bucket, name}})
}

// keep runs add (which adds what a lookup read) if the catalog is still
// trusted and nothing was forgotten since gen.
func (c *catalog) keep(gen uint64, add func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.trusted && c.gen == gen {
		add()
	}
}
