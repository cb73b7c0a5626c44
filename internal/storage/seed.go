package storage

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"studio/internal/files"
)

// SeedPublicBucket makes sure the public bucket id exists and holds the
// files names of fsys, each under its name, of the type
// contentType(name): a file already there is left as it is, so what staff
// replaced stays replaced. Every instance may run it at start; one of them
// stores each file.
func (s *Service) SeedPublicBucket(ctx context.Context, id string, fsys fs.FS, names []string, contentType func(name string) string) error {
	now := s.cfg.Now()
	err := s.store.CreateBucket(ctx, files.Bucket{ID: id, Public: true, CreatedAt: now, UpdatedAt: now})
	if err != nil && !errors.Is(err, files.ErrBucketExists) {
		return fmt.Errorf("bucket %s: %w", id, err)
	}
	for _, name := range names {
		switch _, err := s.store.Object(ctx, id, name); {
		case err == nil:
			continue
		case !errors.Is(err, files.ErrObjectNotFound):
			return fmt.Errorf("%s/%s: %w", id, name, err)
		}
		if err := s.seedFile(ctx, id, fsys, name, contentType(name)); err != nil {
			return fmt.Errorf("%s/%s: %w", id, name, err)
		}
	}
	return nil
}

// seedFile stores the file name of files as the object name of bucket,
// unless another instance stored it first.
func (s *Service) seedFile(ctx context.Context, bucket string, fsys fs.FS, name, contentType string) error {
	f, err := fsys.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err = s.PutFile(ctx, bucket, name, contentType, f, false); errors.Is(err, files.ErrObjectExists) {
		return nil // another instance was first
	}
	return err
}
