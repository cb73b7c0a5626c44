package store_test

import (
	"context"
	"errors"
	"testing"

	"studio/internal/store"
	"studio/internal/store/storetest"
)

func testACMECache(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	if _, err := db.CacheGet(ctx, "studio.example"); !errors.Is(err, store.ErrCacheMiss) {
		t.Fatalf("get of a missing key = %v, want ErrCacheMiss", err)
	}
	for _, data := range [][]byte{[]byte("first \x00 cert"), []byte("renewed cert")} {
		if err := db.CachePut(ctx, "studio.example", data); err != nil {
			t.Fatal(err)
		}
		got, err := db.CacheGet(ctx, "studio.example")
		if err != nil || string(got) != string(data) {
			t.Fatalf("get = %q, %v; want %q", got, err, data)
		}
	}
	if err := db.CacheDelete(ctx, "studio.example"); err != nil {
		t.Fatal(err)
	}
	if err := db.CacheDelete(ctx, "studio.example"); err != nil {
		t.Fatalf("deleting a missing key: %v", err)
	}
	if _, err := db.CacheGet(ctx, "studio.example"); !errors.Is(err, store.ErrCacheMiss) {
		t.Fatalf("get after delete = %v, want ErrCacheMiss", err)
	}
}
