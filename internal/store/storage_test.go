package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"studio/internal/files"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

// TestStorageStore is the metadata of storage/v1, on both engines.
func TestStorageStore(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			t.Run("buckets: create, get, update, delete", func(t *testing.T) { testBuckets(t, engine.New(t)) })
			t.Run("objects: put, replace, conflict", func(t *testing.T) { testPutObject(t, engine.New(t)) })
			t.Run("a name is taken once by simultaneous uploads", func(t *testing.T) { testPutObjectRace(t, engine.New(t)) })
			t.Run("list: folders, search, sort, pages", func(t *testing.T) { testListObjects(t, engine.New(t)) })
			t.Run("move, remove, empty", func(t *testing.T) { testMoveRemove(t, engine.New(t)) })
			t.Run("each write announces what it changed", func(t *testing.T) { testStorageChanges(t, engine.New(t)) })
		})
	}
}

func bucketOf(id string, public bool) files.Bucket {
	return files.Bucket{ID: id, Public: public, Owner: adaID, CreatedAt: t0, UpdatedAt: t0}
}

func objectOf(bucket, name string, at time.Time) files.Object {
	return files.Object{ID: fmt.Sprintf("%s/%s@%d", bucket, name, at.UnixNano()), BucketID: bucket, Name: name,
		Key: "key-" + name + at.String(), Size: 3, ContentType: "text/plain", CacheControl: "max-age=3600",
		ETag: `"abc"`, Owner: adaID, CreatedAt: at, UpdatedAt: at, LastAccessedAt: at}
}

func testBuckets(t *testing.T, db *store.DB) {
	ctx := context.Background()
	limit := int64(1 << 20)
	avatars := bucketOf("avatars", false)
	avatars.FileSizeLimit, avatars.AllowedMimeTypes = &limit, []string{"image/png", "image/*"}
	for _, b := range []files.Bucket{avatars, bucketOf("downloads", true)} {
		if err := db.CreateBucket(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.CreateBucket(ctx, bucketOf("avatars", true)); !errors.Is(err, files.ErrBucketExists) {
		t.Errorf("second create = %v, want ErrBucketExists", err)
	}
	got, err := db.Bucket(ctx, "avatars")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(avatars, got); diff != "" {
		t.Errorf("bucket read back (-want +got):\n%s", diff)
	}
	if _, err := db.Bucket(ctx, "nope"); !errors.Is(err, files.ErrBucketNotFound) {
		t.Errorf("get missing = %v, want ErrBucketNotFound", err)
	}
	avatars.Public, avatars.FileSizeLimit, avatars.AllowedMimeTypes, avatars.UpdatedAt = true, nil, nil, t0.Add(time.Hour)
	if err := db.UpdateBucket(ctx, avatars); err != nil {
		t.Fatal(err)
	}
	list, err := db.ListBuckets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]files.Bucket{avatars, bucketOf("downloads", true)}, list); diff != "" {
		t.Errorf("buckets after update (-want +got):\n%s", diff)
	}
	if err := db.UpdateBucket(ctx, bucketOf("nope", true)); !errors.Is(err, files.ErrBucketNotFound) {
		t.Errorf("update missing = %v, want ErrBucketNotFound", err)
	}
	if _, err := db.PutObject(ctx, objectOf("avatars", "a.png", t0), false); err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteBucket(ctx, "avatars"); !errors.Is(err, files.ErrBucketNotEmpty) {
		t.Errorf("delete non-empty = %v, want ErrBucketNotEmpty", err)
	}
	if err := db.DeleteBucket(ctx, "downloads"); err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteBucket(ctx, "downloads"); !errors.Is(err, files.ErrBucketNotFound) {
		t.Errorf("delete twice = %v, want ErrBucketNotFound", err)
	}
}

func testPutObject(t *testing.T, db *store.DB) {
	ctx := context.Background()
	if _, err := db.PutObject(ctx, objectOf("nope", "a", t0), false); !errors.Is(err, files.ErrBucketNotFound) {
		t.Errorf("put into missing bucket = %v, want ErrBucketNotFound", err)
	}
	if err := db.CreateBucket(ctx, bucketOf("files", false)); err != nil {
		t.Fatal(err)
	}
	first := objectOf("files", "docs/Ünïcode name.txt", t0)
	first.UserMetadata = json.RawMessage(`{"a":1}`)
	if replaced, err := db.PutObject(ctx, first, false); err != nil || replaced != nil {
		t.Fatalf("first put = %v, %v", replaced, err)
	}
	got, err := db.Object(ctx, "files", first.Name)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(first, got); diff != "" {
		t.Errorf("object read back (-want +got):\n%s", diff)
	}
	second := objectOf("files", first.Name, t0.Add(time.Minute))
	if _, err := db.PutObject(ctx, second, false); !errors.Is(err, files.ErrObjectExists) {
		t.Errorf("put without upsert = %v, want ErrObjectExists", err)
	}
	replaced, err := db.PutObject(ctx, second, true)
	if err != nil || replaced == nil || replaced.Key != first.Key {
		t.Fatalf("upsert = %+v, %v; want the first object replaced", replaced, err)
	}
	got, _ = db.Object(ctx, "files", first.Name)
	want := second
	want.ID, want.CreatedAt = first.ID, first.CreatedAt // kept by a replacement
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("replaced object (-want +got):\n%s", diff)
	}
	if _, err := db.Object(ctx, "files", "docs/other"); !errors.Is(err, files.ErrObjectNotFound) {
		t.Errorf("get missing = %v, want ErrObjectNotFound", err)
	}
}

func testPutObjectRace(t *testing.T, db *store.DB) {
	ctx := context.Background()
	if err := db.CreateBucket(ctx, bucketOf("files", false)); err != nil {
		t.Fatal(err)
	}
	var n, created, refused atomic.Int64
	together(inFlight, func() {
		o := objectOf("files", "same", t0.Add(time.Duration(n.Add(1))))
		switch _, err := db.PutObject(ctx, o, false); {
		case err == nil:
			created.Add(1)
		case errors.Is(err, files.ErrObjectExists):
			refused.Add(1)
		default:
			t.Error(err)
		}
	})
	if created.Load() != 1 || refused.Load() != inFlight-1 {
		t.Errorf("created %d, refused %d; want 1 and %d", created.Load(), refused.Load(), inFlight-1)
	}
}

func testListObjects(t *testing.T, db *store.DB) {
	ctx := context.Background()
	if err := db.CreateBucket(ctx, bucketOf("files", false)); err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"b.txt", "A.txt", "c/1.txt", "c/2.txt", "C/x.txt", "d/e/f.txt", "100%_!.txt", "Éclair.txt"} {
		if _, err := db.PutObject(ctx, objectOf("files", name, t0.Add(time.Duration(i)*time.Minute)), false); err != nil {
			t.Fatal(err)
		}
	}
	names := func(q files.ListQuery) []string {
		t.Helper()
		entries, err := db.ListObjects(ctx, "files", q)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range entries {
			if e.Object == nil {
				out = append(out, e.Name+"/")
			} else {
				out = append(out, e.Name)
			}
		}
		return out
	}
	for _, tt := range []struct {
		name string
		q    files.ListQuery
		want []string
	}{
		{"root by name: folders among files, case folded", files.ListQuery{},
			[]string{"100%_!.txt", "A.txt", "b.txt", "C/", "c/", "d/", "Éclair.txt"}},
		{"descending", files.ListQuery{Descending: true},
			[]string{"Éclair.txt", "d/", "c/", "C/", "b.txt", "A.txt", "100%_!.txt"}},
		{"a folder", files.ListQuery{Prefix: "c/"}, []string{"1.txt", "2.txt"}},
		{"a folder's folder", files.ListQuery{Prefix: "d/"}, []string{"e/"}},
		{"search is a case-insensitive prefix", files.ListQuery{Search: "a"}, []string{"A.txt"}},
		{"search with LIKE's special characters", files.ListQuery{Search: "100%_!"}, []string{"100%_!.txt"}},
		{"search never matches everything through %", files.ListQuery{Search: "%"}, nil},
		{"non-ASCII letters match exactly", files.ListQuery{Search: "é"}, nil},
		{"limit and offset", files.ListQuery{Limit: 2, Offset: 1}, []string{"A.txt", "b.txt"}},
		{"offset past the end", files.ListQuery{Offset: 50}, nil},
		{"by created_at: folders first, then files oldest first", files.ListQuery{SortColumn: "created_at"},
			[]string{"C/", "c/", "d/", "b.txt", "A.txt", "100%_!.txt", "Éclair.txt"}},
		{"by updated_at descending", files.ListQuery{SortColumn: "updated_at", Descending: true},
			[]string{"d/", "c/", "C/", "Éclair.txt", "100%_!.txt", "A.txt", "b.txt"}},
		{"a folder that is not there", files.ListQuery{Prefix: "zz/"}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := names(tt.q); !slices.Equal(got, tt.want) {
				t.Errorf("got %q\nwant %q", got, tt.want)
			}
		})
	}
	entries, _ := db.ListObjects(ctx, "files", files.ListQuery{Prefix: "c/", Limit: 1})
	if len(entries) != 1 || entries[0].Object == nil || entries[0].Object.Name != "c/1.txt" {
		t.Errorf("a file's entry = %+v, want the object c/1.txt", entries)
	}
}

func testMoveRemove(t *testing.T, db *store.DB) {
	ctx := context.Background()
	for _, b := range []string{"a", "b"} {
		if err := db.CreateBucket(ctx, bucketOf(b, false)); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"x", "y", "z"} {
		if _, err := db.PutObject(ctx, objectOf("a", name, t0), false); err != nil {
			t.Fatal(err)
		}
	}
	later := t0.Add(time.Hour)
	if err := db.MoveObject(ctx, "a", "x", "b", "moved/x", later); err != nil {
		t.Fatal(err)
	}
	moved, err := db.Object(ctx, "b", "moved/x")
	if err != nil || moved.Key != objectOf("a", "x", t0).Key || !moved.UpdatedAt.Equal(later) {
		t.Errorf("moved = %+v, %v; want the blob of a/x, updated", moved, err)
	}
	for _, tt := range []struct {
		name                 string
		fromB, from, toB, to string
		want                 error
	}{
		{"onto a taken name", "a", "y", "a", "z", files.ErrObjectExists},
		{"an object that is not there", "a", "x", "a", "w", files.ErrObjectNotFound},
		{"into a bucket that is not there", "a", "y", "c", "y", files.ErrBucketNotFound},
	} {
		if err := db.MoveObject(ctx, tt.fromB, tt.from, tt.toB, tt.to, later); !errors.Is(err, tt.want) {
			t.Errorf("move %s = %v, want %v", tt.name, err, tt.want)
		}
	}
	removed, err := db.RemoveObjects(ctx, "a", []string{"y", "nope", "y"})
	if err != nil || len(removed) != 1 || removed[0].Name != "y" {
		t.Errorf("remove = %+v, %v; want y alone", removed, err)
	}
	emptied, err := db.EmptyBucket(ctx, "a")
	if err != nil || len(emptied) != 1 || emptied[0].Name != "z" {
		t.Errorf("empty = %+v, %v; want z alone", emptied, err)
	}
	if err := db.DeleteBucket(ctx, "a"); err != nil {
		t.Errorf("delete after empty: %v", err)
	}
	if _, err := db.EmptyBucket(ctx, "a"); !errors.Is(err, files.ErrBucketNotFound) {
		t.Errorf("empty missing = %v, want ErrBucketNotFound", err)
	}
}

// testStorageChanges: every write of a bucket or an object announces its
// change on the bus (package storage's catalog forgets by them); a refused
// write announces none, and a removal of many names is one change of the
// bucket.
func testStorageChanges(t *testing.T, db *store.DB) {
	ctx := context.Background()
	sub := db.Changes().Subscribe(300)
	defer sub.Close()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	expect := func(what string, want ...string) {
		t.Helper()
		if got := received(t, sub, len(want)); !slices.Equal(got, want) {
			t.Errorf("%s: %q, want %q", what, got, want)
		}
	}
	must(db.CreateBucket(ctx, bucketOf("a", true)))
	expect("create", "INSERT storage_buckets a")
	if err := db.CreateBucket(ctx, bucketOf("a", true)); !errors.Is(err, files.ErrBucketExists) {
		t.Fatal(err)
	}
	must(db.UpdateBucket(ctx, bucketOf("a", false)))
	expect("update (the refused create announced nothing)", "UPDATE storage_buckets a")
	_, err := db.PutObject(ctx, objectOf("a", "x", t0), false)
	must(err)
	expect("put", "INSERT storage_objects a|x")
	_, err = db.PutObject(ctx, objectOf("a", "x", t0.Add(time.Second)), true)
	must(err)
	expect("replace", "UPDATE storage_objects a|x")
	must(db.MoveObject(ctx, "a", "x", "a", "y", t0))
	expect("move", "DELETE storage_objects a|x", "INSERT storage_objects a|y")
	_, err = db.RemoveObjects(ctx, "a", []string{"y", "nope"})
	must(err)
	expect("remove", "DELETE storage_objects a|y")
	var many []string
	for i := range 101 {
		many = append(many, fmt.Sprint(i))
		_, err = db.PutObject(ctx, objectOf("a", many[i], t0), false)
		must(err)
	}
	received(t, sub, 101)
	_, err = db.RemoveObjects(ctx, "a", many)
	must(err)
	expect("remove 101", "UPDATE storage_buckets a")
	_, err = db.EmptyBucket(ctx, "a")
	must(err)
	expect("empty", "UPDATE storage_buckets a")
	must(db.DeleteBucket(ctx, "a"))
	expect("delete", "DELETE storage_buckets a")
}
