package storage

import (
	"fmt"
	"strings"
	"testing"

	"studio/internal/changes"
	"studio/internal/files"
)

// TestBlobCacheBound: the bytes kept never pass the cache's size; the
// least recently read go first; a blob bigger than the whole is not kept.
func TestBlobCacheBound(t *testing.T) {
	c := newBlobCache(10)
	c.put("a", []byte("aaaa"))
	c.put("b", []byte("bbbb"))
	c.get("a") // b is now the least recently read
	c.put("c", []byte("cccc"))
	if _, ok := c.get("b"); ok {
		t.Error("b kept: the least recently read should have gone")
	}
	for _, k := range []string{"a", "c"} {
		if _, ok := c.get(k); !ok {
			t.Errorf("%s gone", k)
		}
	}
	c.put("big", []byte("0123456789a"))
	if _, ok := c.get("big"); ok || c.size > c.max {
		t.Errorf("a blob bigger than the cache: kept %v, size %d of %d", ok, c.size, c.max)
	}
	if c.size != 8 || len(c.blobs) != 2 || c.order.Len() != 2 {
		t.Errorf("size %d, %d blobs, %d in order; want 8, 2, 2", c.size, len(c.blobs), c.order.Len())
	}
}

// anyObject reads the object name of bucket as one that exists, with user
// metadata.
func anyObject(bucket, name string) func() (files.Object, error) {
	return func() (files.Object, error) {
		return files.Object{BucketID: bucket, Name: name, UserMetadata: []byte(`{"big":"` + strings.Repeat("x", 100) + `"}`)}, nil
	}
}

// TestCatalogBound: a catalog knows at most maxCatalogEntries objects (and buckets),
// without their user metadata, and forgets what a change names.
func TestCatalogBound(t *testing.T) {
	var c catalog
	c.reset(true)
	for i := range maxCatalogEntries + 50 {
		name := fmt.Sprint(i)
		if _, err := c.object("b", name, anyObject("b", name)); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(c.objects); n != maxCatalogEntries {
		t.Errorf("%d objects known, want %d", n, maxCatalogEntries)
	}
	for i := range maxCatalogEntries + 50 {
		id := fmt.Sprint(i)
		if _, err := c.bucket(id, func() (files.Bucket, error) { return files.Bucket{ID: id}, nil }); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(c.buckets); n != maxCatalogEntries {
		t.Errorf("%d buckets known, want %d", n, maxCatalogEntries)
	}
	for k, o := range c.objects {
		if o.UserMetadata != nil {
			t.Fatalf("%v kept with its user metadata", k)
		}
	}
	var some files.ObjectName
	for k := range c.objects {
		some = k
		break
	}
	c.changed(changes.Change{Table: files.ObjectChanges, Key: []string{some.Bucket, some.Name}})
	if _, ok := c.objects[some]; ok {
		t.Errorf("%v still known after its change", some)
	}
	c.changed(changes.Change{Table: files.BucketChanges, Key: []string{"b"}})
	if len(c.objects) != 0 {
		t.Errorf("%d objects known after their bucket's change", len(c.objects))
	}
}
