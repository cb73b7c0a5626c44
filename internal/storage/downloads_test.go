package storage_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"studio/internal/files"
	"studio/internal/storage"
	"studio/internal/storage/disk"
	"studio/internal/store/storetest"
)

// TestDownloadCounts: a whole GET of a public object counts as a download;
// HEAD, a range and a 304 do not. The counts reach the store when
// flushed; a replacement keeps counting.
func TestDownloadCounts(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			ctx := context.Background()
			db := engine.New(t)
			blobs, err := disk.New(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			svc := storage.New(db, blobs, nil, storage.Config{})
			now := time.Now()
			for _, b := range []files.Bucket{{ID: "downloads", Public: true, CreatedAt: now, UpdatedAt: now}} {
				if err := db.CreateBucket(ctx, b); err != nil {
					t.Fatal(err)
				}
			}
			put := func(body string, upsert bool) {
				if _, err := svc.PutFile(ctx, "downloads", "deck.md", "text/markdown", strings.NewReader(body), upsert); err != nil {
					t.Fatal(err)
				}
			}
			put("# Deck, first version\n", false)
			get := func(method string, headers ...string) int {
				r := httptest.NewRequest(method, "/storage/v1/object/public/downloads/deck.md", nil)
				for i := 0; i+1 < len(headers); i += 2 {
					r.Header.Set(headers[i], headers[i+1])
				}
				w := httptest.NewRecorder()
				svc.ServeHTTP(w, r)
				return w.Code
			}
			etag := ""
			for _, tt := range []struct {
				method  string
				headers []string
				status  int
			}{
				{"GET", nil, 200},
				{"GET", nil, 200},
				{"HEAD", nil, 200},
				{"GET", []string{"Range", "bytes=0-3"}, 206},
			} {
				if got := get(tt.method, tt.headers...); got != tt.status {
					t.Fatalf("%s %v = %d, want %d", tt.method, tt.headers, got, tt.status)
				}
			}
			o, err := db.Object(ctx, "downloads", "deck.md")
			if err != nil {
				t.Fatal(err)
			}
			etag = o.ETag
			if got := get("GET", "If-None-Match", etag); got != 304 {
				t.Fatalf("If-None-Match = %d", got)
			}
			if o.Downloads != 0 {
				t.Errorf("counted before the flush: %d", o.Downloads)
			}
			svc.FlushDownloads(ctx)
			put("# Deck, second version\n", true)
			get("GET")
			svc.FlushDownloads(ctx)

			if o, err = db.Object(ctx, "downloads", "deck.md"); err != nil || o.Downloads != 3 {
				t.Errorf("downloads = %d (%v), want 3", o.Downloads, err)
			}
		})
	}
}
