package main

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"path/filepath"
	"time"

	"studio/internal/files"
	"studio/internal/site"
	"studio/internal/storage"
	"studio/internal/storage/disk"
	"studio/internal/storage/s3"
	"studio/web"
)

// openBackend is the storage backend --storage-url names, by its scheme:
// empty for the directory "storage" in the data directory; s3:// for an
// S3-compatible bucket, which must exist and answer.
func openBackend(ctx context.Context, storageURL, dataDir string) (files.Backend, error) {
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

// downloadsBucket is the public bucket of the templates the resource pages
// offer; seedDownloads fills it with the files the binary embeds.
const downloadsBucket = "downloads"

// seedDownloads puts every template file the binary embeds (the site's
// downloads/) into the public bucket downloads, once: staff may then
// replace them. It tries before the server listens, so the templates are
// there from its first request; while the store cannot take them, it tries
// again every 5 s in the background.
func seedDownloads(ctx context.Context, files *storage.Service, logger *slog.Logger) {
	templates, err := fs.Sub(web.Site(), downloadsBucket)
	var names []string
	if err == nil {
		names, err = templateNames(templates)
	}
	if err != nil {
		logger.Error("storage: the site has no downloads", "err", err)
		return
	}
	seed := func() bool {
		err := files.SeedPublicBucket(ctx, downloadsBucket, templates, names, site.ContentType)
		if err != nil && ctx.Err() == nil {
			logger.Warn("storage: the templates are not in the bucket downloads yet; trying again in 5 s", "err", err)
		}
		return err == nil
	}
	if seed() {
		return
	}
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-time.After(5 * time.Second):
			}
			if seed() {
				return
			}
		}
	}()
}

// templateNames are the files of the site's downloads/, without their
// compressed copies.
func templateNames(templates fs.FS) ([]string, error) {
	entries, err := fs.ReadDir(templates, ".")
	var names []string
	for _, e := range entries {
		if !e.IsDir() && !site.IsCompressedCopy(e.Name()) {
			names = append(names, e.Name())
		}
	}
	return names, err
}
