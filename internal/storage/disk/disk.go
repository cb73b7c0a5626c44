// Package disk is the storage backend that keeps each blob as a file in a
// directory (by default <--data>/storage): the backend of one server.
//
// A key names its file through its SHA-256 (<dir>/<2 hex>/<64 hex>), so no
// key, whatever its characters or length, can name a file elsewhere. A
// write is atomic and durable: the bytes go to a temporary file in the
// same directory, which is synced, renamed into place, and the directory
// synced; a reader sees the whole blob or none.
package disk

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"studio/internal/files"
)

// Backend is a directory of blobs. It is safe for concurrent use, also by
// several processes on one directory.
type Backend struct {
	dir string
}

var _ files.Backend = (*Backend)(nil)

// New returns the backend of dir, creating it when missing.
func New(dir string) (*Backend, error) {
	// Readable by this user alone, whatever the umask; one an earlier
	// release made 0750 is tightened (the files in it then cannot be
	// reached by others, whatever their own mode).
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("storage directory: %w", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, fmt.Errorf("storage directory: %w", err)
	}
	return &Backend{dir: dir}, nil
}

// Dir is the backend's directory.
func (b *Backend) Dir() string { return b.dir }

// path is the file of key.
func (b *Backend) path(key string) string {
	sum := sha256.Sum256([]byte(key))
	h := hex.EncodeToString(sum[:])
	return filepath.Join(b.dir, h[:2], h)
}

// Put implements files.Backend: r is copied to a temporary file with a
// small buffer, so memory does not grow with the blob.
func (b *Backend) Put(ctx context.Context, key string, r io.Reader, _ string) (int64, error) {
	final := b.path(key)
	if err := os.MkdirAll(filepath.Dir(final), 0o700); err != nil {
		return 0, fmt.Errorf("storage: %w", err)
	}
	tmp, err := os.OpenFile(tempName(final), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return 0, fmt.Errorf("storage: put %s: %w", key, err)
	}
	size, err := io.Copy(tmp, contextReader{ctx, r})
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = b.commit(tmp.Name(), final)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return 0, fmt.Errorf("storage: put %s: %w", key, err)
	}
	return size, nil
}

// tempName is a new name for a temporary file beside final: in its
// directory, so that the rename into place is atomic.
func tempName(final string) string {
	var n [8]byte
	_, _ = rand.Read(n[:])
	return filepath.Join(filepath.Dir(final), tempPrefix+hex.EncodeToString(n[:]))
}

const tempPrefix = ".tmp-"

// isTemp tells a temporary file of a write in progress by its name.
func isTemp(name string) bool { return strings.HasPrefix(name, tempPrefix) }

// commit renames the synced file tmp to final and syncs their directory,
// so that the rename survives a power cut.
func (b *Backend) commit(tmp, final string) error {
	if err := os.Rename(tmp, final); err != nil {
		return err
	}
	d, err := os.Open(filepath.Dir(final))
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// Open implements files.Backend: the *os.File of the blob.
func (b *Backend) Open(_ context.Context, key string) (io.ReadSeekCloser, error) {
	f, err := os.Open(b.path(key))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, files.ErrBlobNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("storage: open %s: %w", key, err)
	}
	return f, nil
}

// Copy implements files.Backend: a hard link when the file system allows
// one (blobs never change once written), else a copy of the bytes.
func (b *Backend) Copy(ctx context.Context, from, to string) error {
	src := b.path(from)
	if _, err := os.Stat(src); errors.Is(err, fs.ErrNotExist) {
		return files.ErrBlobNotFound
	}
	final := b.path(to)
	if err := os.MkdirAll(filepath.Dir(final), 0o700); err != nil {
		return fmt.Errorf("storage: %w", err)
	}
	tmp := tempName(final)
	if err := os.Link(src, tmp); err == nil {
		if err := b.commit(tmp, final); err != nil {
			os.Remove(tmp)
			return fmt.Errorf("storage: copy %s: %w", from, err)
		}
		return nil
	}
	f, err := b.Open(ctx, from)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = b.Put(ctx, to, f, "")
	return err
}

// Delete implements files.Backend.
func (b *Backend) Delete(_ context.Context, key string) error {
	if err := os.Remove(b.path(key)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("storage: delete %s: %w", key, err)
	}
	return nil
}

// contextReader stops reading once ctx ends: an upload whose request is
// gone leaves nothing behind.
type contextReader struct {
	ctx context.Context
	r   io.Reader
}

func (c contextReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// CopyTo copies every blob of the backend that dst lacks into dst (a
// directory of the same layout, made when missing), each as a hard link
// where the file system allows, else as a synced copy; temporary files of
// writes in progress are left out. Blobs never change once written, so a
// copy is never stale. It returns how many it copied.
func (b *Backend) CopyTo(dst string) (int, error) {
	copied := 0
	err := filepath.WalkDir(b.dir, func(src string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || isTemp(d.Name()) {
			return err
		}
		rel, err := filepath.Rel(b.dir, src)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		if _, err := os.Lstat(to); err == nil {
			return nil
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o700); err != nil {
			return err
		}
		if err := os.Link(src, to); err != nil {
			if err := copyFile(src, to); err != nil {
				return err
			}
		}
		copied++
		return nil
	})
	return copied, err
}

// copyFile copies src to the new file to, synced.
func copyFile(src, to string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err = io.Copy(out, in); err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}
