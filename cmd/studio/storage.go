package main

import (
	"errors"
	"fmt"
	"net/url"
	"path/filepath"

	"studio/internal/storage"
	"studio/internal/storage/disk"
)

// openBackend is the storage backend --storage-url names, by its scheme:
// empty for the directory "storage" in the data directory; s3:// for an
// S3-compatible bucket.
func openBackend(storageURL, dataDir string) (storage.Backend, error) {
	if storageURL == "" {
		return disk.New(filepath.Join(dataDir, "storage"))
	}
	u, err := url.Parse(storageURL)
	if err != nil {
		return nil, err
	}
	switch u.Scheme {
	case "s3":
		return openS3Backend(u)
	}
	return nil, fmt.Errorf("%q: want empty (a directory in --data) or s3://BUCKET?endpoint=…&region=…", storageURL)
}

// openS3Backend is the S3 backend of an s3:// URL (package storage/s3).
func openS3Backend(*url.URL) (storage.Backend, error) {
	return nil, errors.New("the S3 backend is not built into this binary yet")
}
