package files

import (
	"context"
	"errors"
	"io"
)

// Backend holds the bytes of objects under keys that the service (package
// storage) chooses: each upload of an object gets a new key, and the metadata in the store
// says which key an object's name stands for, so a replacement is one
// commit in the store and a reader never sees half of one.
type Backend interface {
	// Put streams r into a new blob under key and returns its size. The
	// blob is whole and durable when Put returns nil; on error nothing is
	// left under key. Memory use does not grow with the blob's size.
	Put(ctx context.Context, key string, r io.Reader, contentType string) (size int64, err error)
	// Open opens the blob under key for reading (http.ServeContent reads
	// ranges of it through Seek); ErrBlobNotFound when there is none.
	Open(ctx context.Context, key string) (io.ReadSeekCloser, error)
	// Copy makes the blob under from also the blob under to.
	Copy(ctx context.Context, from, to string) error
	// Delete removes the blob under key; no error when there is none.
	Delete(ctx context.Context, key string) error
}

// ErrBlobNotFound is a Backend's answer for a key that holds no blob.
var ErrBlobNotFound = errors.New("storage: no blob under this key")
