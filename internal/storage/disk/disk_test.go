package disk_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"studio/internal/files"
	"studio/internal/storage/disk"
)

func newBackend(t *testing.T) (*disk.Backend, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "storage")
	b, err := disk.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	return b, dir
}

func read(t *testing.T, b *disk.Backend, key string) string {
	t.Helper()
	f, err := b.Open(context.Background(), key)
	if err != nil {
		t.Fatalf("open %q: %v", key, err)
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// filesIn lists every file under dir, temporary ones too.
func filesIn(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestPutOpenCopyDelete(t *testing.T) {
	b, _ := newBackend(t)
	ctx := context.Background()
	for _, key := range []string{"a", "bucket/x y/ünï.txt", "../../escape", strings.Repeat("k", 2000), "/abs\x00olute"} {
		t.Run(key[:min(len(key), 20)], func(t *testing.T) {
			n, err := b.Put(ctx, key, strings.NewReader("hello "+key), "text/plain")
			if err != nil || n != int64(len("hello "+key)) {
				t.Fatalf("put = %d, %v", n, err)
			}
			if got := read(t, b, key); got != "hello "+key {
				t.Errorf("read back %q", got)
			}
			if err := b.Copy(ctx, key, key+"-copy"); err != nil {
				t.Fatal(err)
			}
			if err := b.Delete(ctx, key); err != nil {
				t.Fatal(err)
			}
			if got := read(t, b, key+"-copy"); got != "hello "+key {
				t.Errorf("the copy after the original's delete reads %q", got)
			}
			if _, err := b.Open(ctx, key); !errors.Is(err, files.ErrBlobNotFound) {
				t.Errorf("open after delete = %v, want ErrBlobNotFound", err)
			}
			if err := b.Delete(ctx, key); err != nil {
				t.Errorf("second delete = %v, want nil", err)
			}
		})
	}
	if err := b.Copy(ctx, "missing", "to"); !errors.Is(err, files.ErrBlobNotFound) {
		t.Errorf("copy of a missing blob = %v, want ErrBlobNotFound", err)
	}
}

// TestKeysStayInside: whatever a key says, its file is inside the directory.
func TestKeysStayInside(t *testing.T) {
	b, dir := newBackend(t)
	for _, key := range []string{"../outside", "../../etc/passwd", "/tmp/x", "a/../../b"} {
		if _, err := b.Put(context.Background(), key, strings.NewReader("x"), ""); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range filesIn(t, dir) {
		if rel, err := filepath.Rel(dir, f); err != nil || strings.HasPrefix(rel, "..") {
			t.Errorf("file %s outside %s", f, dir)
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "outside")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a key wrote outside the directory: %v", err)
	}
}

// failingReader gives some bytes, then an error.
type failingReader struct{ sent bool }

func (r *failingReader) Read(p []byte) (int, error) {
	if r.sent {
		return 0, errors.New("connection reset")
	}
	r.sent = true
	return copy(p, "partial"), nil
}

// TestFailedPutLeavesNothing: a body that breaks, or a request that ends,
// leaves neither a blob nor a temporary file; an earlier blob under the key
// is intact.
func TestFailedPutLeavesNothing(t *testing.T) {
	ctx := context.Background()
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	for _, tt := range []struct {
		name string
		ctx  context.Context
		r    io.Reader
	}{
		{"the body breaks", ctx, &failingReader{}},
		{"the request ended", cancelled, strings.NewReader("data")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, dir := newBackend(t)
			if _, err := b.Put(ctx, "kept", strings.NewReader("old"), ""); err != nil {
				t.Fatal(err)
			}
			if _, err := b.Put(tt.ctx, "new", tt.r, ""); err == nil {
				t.Fatal("put succeeded")
			}
			if _, err := b.Put(tt.ctx, "kept", &failingReader{}, ""); err == nil {
				t.Fatal("put over kept succeeded")
			}
			if _, err := b.Open(ctx, "new"); !errors.Is(err, files.ErrBlobNotFound) {
				t.Errorf("open = %v, want ErrBlobNotFound", err)
			}
			if got := read(t, b, "kept"); got != "old" {
				t.Errorf("the earlier blob reads %q", got)
			}
			if got := filesIn(t, dir); len(got) != 1 {
				t.Errorf("files left: %q, want the one blob", got)
			}
		})
	}
}

// TestOpenSeeks: the blob is read in ranges, as http.ServeContent does.
func TestOpenSeeks(t *testing.T) {
	b, _ := newBackend(t)
	data := bytes.Repeat([]byte("0123456789"), 100000)
	if _, err := b.Put(context.Background(), "big", bytes.NewReader(data), ""); err != nil {
		t.Fatal(err)
	}
	f, err := b.Open(context.Background(), "big")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if end, _ := f.Seek(0, io.SeekEnd); end != int64(len(data)) {
		t.Errorf("size %d, want %d", end, len(data))
	}
	if _, err := f.Seek(999995, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	tail, _ := io.ReadAll(f)
	if string(tail) != "56789" {
		t.Errorf("tail %q", tail)
	}
}
