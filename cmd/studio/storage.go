package main

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"

	"studio/internal/storage"
	"studio/internal/storage/disk"
	"studio/internal/storage/s3"
)

// openBackend is the storage backend --storage-url names, by its scheme:
// empty for the directory "storage" in the data directory; s3:// for an
// S3-compatible bucket, which must exist and answer.
func openBackend(ctx context.Context, storageURL, dataDir string) (storage.Backend, error) {
	if storageURL == "" {
		return disk.New(filepath.Join(dataDir, "storage"))
	}
	u, err := url.Parse(storageURL)
	if err != nil {
		return nil, err
	}
	if u.Scheme == "s3" {
		return s3.Open(ctx, storageURL)
	}
	return nil, fmt.Errorf("%q: want empty (a directory in --data) or s3://BUCKET?endpoint=…&region=…", storageURL)
}
