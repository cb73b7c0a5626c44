package storage_test

import (
	"context"
	"io"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"studio/internal/files"
	"studio/internal/storage"
	"studio/internal/storage/disk"
	"studio/internal/store/storetest"
)

// countingBlobs is a backend that counts the blobs opened.
type countingBlobs struct {
	files.Backend
	opened atomic.Int64
}

func (c *countingBlobs) Open(ctx context.Context, key string) (io.ReadSeekCloser, error) {
	c.opened.Add(1)
	return c.Backend.Open(ctx, key)
}

// TestRevalidationOpensNoBlob: a GET or HEAD whose If-None-Match names the
// object's ETag is answered 304, with the ETag and cache policy and no
// body, without opening its blob; any other request reads the blob as
// before (a stale ETag, a range, If-Match, which goes first).
func TestRevalidationOpensNoBlob(t *testing.T) {
	ctx := context.Background()
	db := storetest.Engines()[0].New(t)
	dir, err := disk.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	blobs := &countingBlobs{Backend: dir}
	svc := storage.New(db, blobs, nil, storage.Config{})
	now := time.Now()
	if err := db.CreateBucket(ctx, files.Bucket{ID: "downloads", Public: true, CreatedAt: now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.PutFile(ctx, "downloads", "deck.md", "text/markdown", strings.NewReader("# Deck\n"), false); err != nil {
		t.Fatal(err)
	}
	o, err := db.Object(ctx, "downloads", "deck.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name    string
		method  string
		headers map[string]string
		status  int
		opens   int64
	}{
		{"revalidation", "GET", map[string]string{"If-None-Match": o.ETag}, 304, 0},
		{"weak, in a list", "GET", map[string]string{"If-None-Match": `"other", W/` + o.ETag}, 304, 0},
		{"HEAD", "HEAD", map[string]string{"If-None-Match": o.ETag}, 304, 0},
		{"a stale ETag", "GET", map[string]string{"If-None-Match": `"stale"`}, 200, 1},
		{"If-Match that fails goes first", "GET", map[string]string{"If-None-Match": o.ETag, "If-Match": `"stale"`}, 412, 1},
		{"no validator", "GET", nil, 200, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			blobs.opened.Store(0)
			r := httptest.NewRequest(tt.method, "/storage/v1/object/public/downloads/deck.md", nil)
			for k, v := range tt.headers {
				r.Header.Set(k, v)
			}
			w := httptest.NewRecorder()
			svc.ServeHTTP(w, r)
			if w.Code != tt.status || blobs.opened.Load() != tt.opens {
				t.Errorf("%d, %d blobs opened; want %d, %d", w.Code, blobs.opened.Load(), tt.status, tt.opens)
			}
			if tt.status == 304 {
				h := w.Header()
				if h.Get("ETag") != o.ETag || h.Get("Cache-Control") != o.CacheControl || h.Get("Content-Type") != "" || w.Body.Len() != 0 {
					t.Errorf("304 with ETag %q, Cache-Control %q, Content-Type %q, %d bytes", h.Get("ETag"), h.Get("Cache-Control"), h.Get("Content-Type"), w.Body.Len())
				}
			}
		})
	}
}
