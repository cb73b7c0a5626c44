package storage

import (
	"context"
	"errors"
	"fmt"
	"io"

	"studio/internal/fault"
	"studio/internal/files"
)

// The Go side of the service, for the CLI and the site's own files: the
// same rules as over HTTP (names, the bucket's size limit and types, one
// new blob per upload), without a request.

// The refusals of PutFile besides the store's.
var (
	ErrInvalidName    = fault.New(fault.Invalid, "invalid object name: no empty, . or .. segments, no control characters, at most 1,024 bytes")
	ErrTooLarge       = fault.New(fault.Invalid, "the file is larger than the bucket allows")
	ErrTypeNotAllowed = fault.New(fault.Invalid, "the bucket does not allow files of this type")
)

// PutFile streams r into the object name of bucket, of contentType; with
// upsert it replaces an object of that name, else that is ErrObjectExists.
func (s *Service) PutFile(ctx context.Context, bucket, name, contentType string, r io.Reader, upsert bool) (files.Object, error) {
	if !validName(name) {
		return files.Object{}, ErrInvalidName
	}
	b, err := s.store.Bucket(ctx, bucket)
	if err != nil {
		return files.Object{}, err
	}
	if !mimeAllowed(b.AllowedMimeTypes, contentType) {
		return files.Object{}, fmt.Errorf("%w: %s", ErrTypeNotAllowed, contentType)
	}
	limit := s.cfg.MaxFileSize
	if b.FileSizeLimit != nil {
		limit = min(limit, *b.FileSizeLimit)
	}
	o, err := s.putObject(ctx, files.Object{BucketID: bucket, Name: name, ContentType: contentType, CacheControl: "max-age=3600"},
		newUploadReader(nil, r, limit), upsert)
	if errors.Is(err, errOverLimit) {
		return o, ErrTooLarge
	}
	return o, err
}

// OpenFile returns the object name of bucket and its bytes, to be closed.
func (s *Service) OpenFile(ctx context.Context, bucket, name string) (files.Object, io.ReadSeekCloser, error) {
	o, err := s.store.Object(ctx, bucket, name)
	if err != nil {
		return o, nil, err
	}
	f, err := s.backend.Open(ctx, o.Key)
	if errors.Is(err, files.ErrBlobNotFound) {
		return o, nil, files.ErrObjectNotFound // removed meanwhile
	}
	return o, f, err
}

// RemoveFiles removes the named objects of bucket and returns those there
// were.
func (s *Service) RemoveFiles(ctx context.Context, bucket string, names []string) ([]files.Object, error) {
	removed, err := s.store.RemoveObjects(ctx, bucket, names)
	if err == nil {
		s.deleteBlobs(ctx, removed)
	}
	return removed, err
}

// Buckets returns every bucket, by id.
func (s *Service) Buckets(ctx context.Context) ([]files.Bucket, error) {
	return s.store.ListBuckets(ctx)
}

// ListFiles returns the entries of the folder prefix ("" or ending in "/")
// of bucket, by name.
func (s *Service) ListFiles(ctx context.Context, bucket, prefix string) ([]files.Entry, error) {
	if _, err := s.store.Bucket(ctx, bucket); err != nil {
		return nil, err
	}
	return s.store.ListObjects(ctx, bucket, files.ListQuery{Prefix: prefix, Limit: 100_000, SortColumn: "name"})
}
