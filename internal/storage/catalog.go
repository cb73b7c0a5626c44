package storage

import (
	"context"
	"sync"

	"studio/internal/changes"
	"studio/internal/files"
)

// maxCatalogEntries bounds the buckets, and the objects, a catalog knows:
// a few megabytes of metadata at most (a name is at most MaxNameBytes).
const maxCatalogEntries = 10_000

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

// bucket is the bucket id, from the catalog when trusted, else read's.
func (c *catalog) bucket(id string, read func() (files.Bucket, error)) (files.Bucket, error) {
	return lookup(c, &c.buckets, id, read)
}

// object is the object name of bucket, as bucket is, without its user
// metadata (no download sends it).
func (c *catalog) object(bucket, name string, read func() (files.Object, error)) (files.Object, error) {
	return lookup(c, &c.objects, files.ObjectName{Bucket: bucket, Name: name}, func() (files.Object, error) {
		o, err := read()
		o.UserMetadata = nil
		return o, err
	})
}

// lookup is the entry key of known (one of c's maps) if c knows it, else
// what read reads from the store, kept if the catalog is trusted and nothing
// was forgotten while it read (it may have read the row a change replaced).
// When known is full, an entry at random makes room.
func lookup[K comparable, V any](c *catalog, known *map[K]V, key K, read func() (V, error)) (V, error) {
	c.mu.RLock()
	v, ok := (*known)[key]
	trusted, gen := c.trusted, c.gen
	c.mu.RUnlock()
	if ok {
		return v, nil
	}
	v, err := read()
	if err != nil || !trusted {
		return v, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.trusted || c.gen != gen {
		return v, nil
	}
	if *known == nil {
		*known = map[K]V{}
	}
	if len(*known) >= maxCatalogEntries {
		for k := range *known {
			delete(*known, k)
			break
		}
	}
	(*known)[key] = v
	return v, nil
}

// forget forgets the object name of bucket: its blob was not found, so its
// row has changed (a replacement whose news has not come yet).
func (c *catalog) forget(bucket, name string) {
	c.changed(changes.Change{Table: files.ObjectChanges, Key: []string{bucket, name}})
}
