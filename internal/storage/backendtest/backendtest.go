// Package backendtest is the conformance suite of files.Backend: what
// the storage service relies on from every backend, checked the same way
// on each (the disk backend, the S3 backend against a real server).
package backendtest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"testing"
	"time"

	"studio/internal/files"
)

// Run runs the suite, each subtest on a backend of its own from
// newBackend (which may share one bucket or directory: each subtest uses
// keys of its own). The subtests run one at a time; Run must not run in
// parallel with other tests of its process, whose allocations would count
// in the streaming subtest's measure of the heap.
func Run(t *testing.T, newBackend func(t *testing.T) files.Backend) {
	t.Helper()
	tests := []struct {
		name string
		test func(t *testing.T, b files.Backend, key func(string) string)
	}{
		{"put then open reads the blob back", testPutOpen},
		{"an empty blob", testEmpty},
		{"a new key replaces a blob without touching the old one", testReplace},
		{"open of a missing key is ErrBlobNotFound", testOpenMissing},
		{"delete removes the blob, and deleting nothing is no error", testDelete},
		{"copy makes an independent blob", testCopy},
		{"seek and read ranges as http.ServeContent does", testRanges},
		{"a put whose reader fails leaves nothing under the key", testFailedPut},
		{"a cancelled context stops a put", testCancelledPut},
		{"concurrent puts of different keys", testConcurrentPuts},
		{"a 64 MiB put streams in bounded memory", testStreaming},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newBackend(t)
			// Keys of this run only, so that backends sharing a bucket
			// with an earlier run or subtest see no blob of theirs.
			run := fmt.Sprintf("conformance/%x/", rand.Uint64())
			tt.test(t, b, func(name string) string { return run + name })
		})
	}
}

func testPutOpen(t *testing.T, b files.Backend, key func(string) string) {
	ctx := t.Context()
	for _, size := range []int{1, 1000, 1 << 20} {
		k := key(fmt.Sprintf("blob-%d", size))
		data := randomBytes(size)
		n, err := b.Put(ctx, k, bytes.NewReader(data), "application/octet-stream")
		if err != nil {
			t.Fatalf("Put of %d bytes: %v", size, err)
		}
		if n != int64(size) {
			t.Errorf("Put of %d bytes returned size %d", size, n)
		}
		if got := readAll(t, b, k); !bytes.Equal(got, data) {
			t.Errorf("the blob of %d bytes read back as %d different bytes", size, len(got))
		}
	}
}

func testEmpty(t *testing.T, b files.Backend, key func(string) string) {
	ctx := t.Context()
	k := key("empty")
	n, err := b.Put(ctx, k, bytes.NewReader(nil), "text/plain")
	if err != nil || n != 0 {
		t.Fatalf("Put of an empty blob = %d, %v; want 0, nil", n, err)
	}
	r, err := b.Open(ctx, k)
	if err != nil {
		t.Fatalf("Open of the empty blob: %v", err)
	}
	defer r.Close()
	if size, err := r.Seek(0, io.SeekEnd); err != nil || size != 0 {
		t.Errorf("Seek to the end of the empty blob = %d, %v; want 0, nil", size, err)
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		t.Fatalf("Seek to the start: %v", err)
	}
	if got, err := io.ReadAll(r); err != nil || len(got) != 0 {
		t.Errorf("reading the empty blob = %d bytes, %v; want 0, nil", len(got), err)
	}
}

// testReplace is how the service replaces an object: the new bytes under a
// new key, then the old key deleted.
func testReplace(t *testing.T, b files.Backend, key func(string) string) {
	ctx := t.Context()
	old, replacement := []byte("version 1"), []byte("version 2, longer")
	put(t, b, key("v1"), old)
	r, err := b.Open(ctx, key("v1"))
	if err != nil {
		t.Fatalf("Open v1: %v", err)
	}
	defer r.Close()
	put(t, b, key("v2"), replacement)
	if got := readAll(t, b, key("v2")); !bytes.Equal(got, replacement) {
		t.Errorf("v2 = %q, want %q", got, replacement)
	}
	if got, err := io.ReadAll(r); err != nil || !bytes.Equal(got, old) {
		t.Errorf("a reader of v1 opened before v2 was put read %q, %v; want %q", got, err, old)
	}
	if err := b.Delete(ctx, key("v1")); err != nil {
		t.Fatalf("Delete v1: %v", err)
	}
	if got := readAll(t, b, key("v2")); !bytes.Equal(got, replacement) {
		t.Errorf("after deleting v1, v2 = %q, want %q", got, replacement)
	}
}

func testOpenMissing(t *testing.T, b files.Backend, key func(string) string) {
	r, err := b.Open(t.Context(), key("never-put"))
	if err == nil {
		r.Close()
	}
	if !errors.Is(err, files.ErrBlobNotFound) {
		t.Errorf("Open of a missing key = %v, want ErrBlobNotFound", err)
	}
}

func testDelete(t *testing.T, b files.Backend, key func(string) string) {
	ctx := t.Context()
	k := key("to-delete")
	put(t, b, k, []byte("short-lived"))
	if err := b.Delete(ctx, k); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if _, err := b.Open(ctx, k); !errors.Is(err, files.ErrBlobNotFound) {
		t.Errorf("Open after Delete = %v, want ErrBlobNotFound", err)
	}
	if err := b.Delete(ctx, k); err != nil {
		t.Errorf("Delete of a deleted key = %v, want nil", err)
	}
	if err := b.Delete(ctx, key("never-put")); err != nil {
		t.Errorf("Delete of a key never put = %v, want nil", err)
	}
}

func testCopy(t *testing.T, b files.Backend, key func(string) string) {
	ctx := t.Context()
	data := randomBytes(100_000)
	put(t, b, key("original"), data)
	if err := b.Copy(ctx, key("original"), key("copy")); err != nil {
		t.Fatalf("Copy: %v", err)
	}
	if got := readAll(t, b, key("copy")); !bytes.Equal(got, data) {
		t.Errorf("the copy differs from the original (%d bytes, want %d)", len(got), len(data))
	}
	if err := b.Delete(ctx, key("original")); err != nil {
		t.Fatalf("Delete of the original: %v", err)
	}
	if got := readAll(t, b, key("copy")); !bytes.Equal(got, data) {
		t.Errorf("after deleting the original, the copy has %d bytes, want %d", len(got), len(data))
	}
	if err := b.Copy(ctx, key("never-put"), key("copy-of-nothing")); !errors.Is(err, files.ErrBlobNotFound) {
		t.Errorf("Copy of a missing key = %v, want ErrBlobNotFound", err)
	}
	if _, err := b.Open(ctx, key("copy-of-nothing")); !errors.Is(err, files.ErrBlobNotFound) {
		t.Errorf("a failed Copy left a blob: Open = %v, want ErrBlobNotFound", err)
	}
}

func testRanges(t *testing.T, b files.Backend, key func(string) string) {
	ctx := t.Context()
	const size = 300_000
	data := randomBytes(size)
	k := key("ranges")
	put(t, b, k, data)

	t.Run("seek and read", func(t *testing.T) {
		r, err := b.Open(ctx, k)
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		defer r.Close()
		if end, err := r.Seek(0, io.SeekEnd); err != nil || end != size {
			t.Fatalf("Seek(0, SeekEnd) = %d, %v; want %d", end, err, size)
		}
		reads := []struct{ offset, length int64 }{
			{0, 10}, {150_000, 1000}, {1, 1}, {70_000, 200_000}, {size - 7, 7},
		}
		for _, rd := range reads {
			if pos, err := r.Seek(rd.offset, io.SeekStart); err != nil || pos != rd.offset {
				t.Fatalf("Seek(%d, SeekStart) = %d, %v", rd.offset, pos, err)
			}
			got := make([]byte, rd.length)
			if _, err := io.ReadFull(r, got); err != nil {
				t.Fatalf("reading %d bytes at %d: %v", rd.length, rd.offset, err)
			}
			if !bytes.Equal(got, data[rd.offset:rd.offset+rd.length]) {
				t.Errorf("%d bytes at %d differ from the blob's", rd.length, rd.offset)
			}
		}
		if n, err := r.Read(make([]byte, 10)); n != 0 || err != io.EOF {
			t.Errorf("Read at the end = %d, %v; want 0, EOF", n, err)
		}
	})

	// What the service does with a download: http.ServeContent on the
	// reader Open returns.
	serve := func(rangeHeader string) *http.Response {
		r, err := b.Open(ctx, k)
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		defer r.Close()
		req := httptest.NewRequest(http.MethodGet, "/blob", nil)
		if rangeHeader != "" {
			req.Header.Set("Range", rangeHeader)
		}
		w := httptest.NewRecorder()
		http.ServeContent(w, req, "blob", time.Time{}, r)
		return w.Result()
	}
	tests := []struct {
		name, rangeHeader string
		status            int
		want              []byte
	}{
		{"whole", "", http.StatusOK, data},
		{"first bytes", "bytes=0-99", http.StatusPartialContent, data[:100]},
		{"middle", "bytes=123456-133455", http.StatusPartialContent, data[123456:133456]},
		{"suffix", "bytes=-500", http.StatusPartialContent, data[size-500:]},
		{"open-ended", "bytes=299000-", http.StatusPartialContent, data[299000:]},
		{"past the end", "bytes=400000-", http.StatusRequestedRangeNotSatisfiable, nil},
	}
	for _, tt := range tests {
		t.Run("ServeContent "+tt.name, func(t *testing.T) {
			resp := serve(tt.rangeHeader)
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.status)
			}
			if tt.want != nil && !bytes.Equal(body, tt.want) {
				t.Errorf("body of %d bytes differs from the %d wanted", len(body), len(tt.want))
			}
		})
	}
}

var errBrokenReader = errors.New("backendtest: the upload's reader failed")

func testFailedPut(t *testing.T, b files.Backend, key func(string) string) {
	// Past a first part of a multipart upload (S3's parts are 5 MiB or
	// more), and within one.
	for _, size := range []int64{6 << 20, 1000} {
		k := key(fmt.Sprintf("broken-%d", size))
		r := io.MultiReader(newGenerator(size, 1), failingReader{})
		if _, err := b.Put(t.Context(), k, r, "application/octet-stream"); err == nil {
			t.Errorf("Put whose reader fails after %d bytes returned no error", size)
		}
		if _, err := b.Open(t.Context(), k); !errors.Is(err, files.ErrBlobNotFound) {
			t.Errorf("after a Put whose reader failed after %d bytes, Open = %v, want ErrBlobNotFound", size, err)
		}
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errBrokenReader }

func testCancelledPut(t *testing.T, b files.Backend, key func(string) string) {
	t.Run("before", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		k := key("cancelled-before")
		if _, err := b.Put(ctx, k, bytes.NewReader([]byte("never stored")), "text/plain"); err == nil {
			t.Errorf("Put with a cancelled context returned no error")
		}
		if _, err := b.Open(t.Context(), k); !errors.Is(err, files.ErrBlobNotFound) {
			t.Errorf("after a cancelled Put, Open = %v, want ErrBlobNotFound", err)
		}
	})
	t.Run("midway", func(t *testing.T) {
		// An endless upload, cancelled once 1 MiB of it is read: Put must
		// return (having read on at most 32 MiB), leaving nothing.
		const cancelAt, limit = 1 << 20, 32 << 20
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		r := &cancellingReader{gen: newGenerator(1<<40, 2), cancelAt: cancelAt, cancel: cancel, limit: limit}
		k := key("cancelled-midway")
		if _, err := b.Put(ctx, k, r, "application/octet-stream"); err == nil {
			t.Errorf("Put whose context was cancelled midway returned no error")
		}
		if r.read > cancelAt+limit {
			t.Errorf("Put read %d bytes after its context was cancelled", r.read-cancelAt)
		}
		if _, err := b.Open(t.Context(), k); !errors.Is(err, files.ErrBlobNotFound) {
			t.Errorf("after a Put cancelled midway, Open = %v, want ErrBlobNotFound", err)
		}
	})
}

// cancellingReader cancels its upload's context once it has given
// cancelAt bytes, and fails once it has given limit more.
type cancellingReader struct {
	gen             io.Reader
	cancelAt, limit int64
	cancel          func()
	read            int64
}

func (r *cancellingReader) Read(p []byte) (int, error) {
	if r.read >= r.cancelAt {
		r.cancel()
	}
	if r.read > r.cancelAt+r.limit {
		return 0, errors.New("backendtest: Put reads on after its context was cancelled")
	}
	n, err := r.gen.Read(p)
	r.read += int64(n)
	return n, err
}

func testConcurrentPuts(t *testing.T, b files.Backend, key func(string) string) {
	const puts = 8
	blobs := make([][]byte, puts)
	for i := range blobs {
		blobs[i] = randomBytes(200_000 + i)
	}
	var wg sync.WaitGroup
	errs := make([]error, puts)
	for i := range puts {
		wg.Go(func() {
			_, errs[i] = b.Put(t.Context(), key(fmt.Sprint("concurrent-", i)), bytes.NewReader(blobs[i]), "application/octet-stream")
		})
	}
	wg.Wait()
	for i := range puts {
		if errs[i] != nil {
			t.Errorf("Put %d: %v", i, errs[i])
			continue
		}
		if got := readAll(t, b, key(fmt.Sprint("concurrent-", i))); !bytes.Equal(got, blobs[i]) {
			t.Errorf("blob %d read back as %d different bytes", i, len(got))
		}
	}
}

// testStreaming puts 64 MiB from a generator and checks that the live heap
// never grew by more than 16 MiB meanwhile: the generator measures it (after
// a collection) every 4 MiB it gives, so a backend that buffers the blob is
// caught with most of it in memory. It then reads the blob back the same
// way.
func testStreaming(t *testing.T, b files.Backend, key func(string) string) {
	const size, bound = 64 << 20, 16 << 20
	ctx := t.Context()
	k := key("large")

	baseline := liveHeap()
	gen := &measuringReader{r: newGenerator(size, 3), every: 4 << 20}
	n, err := b.Put(ctx, k, gen, "application/octet-stream")
	if err != nil {
		t.Fatalf("Put of 64 MiB: %v", err)
	}
	if n != size {
		t.Errorf("Put of 64 MiB returned size %d", n)
	}
	growth := max(int64(gen.peak)-int64(baseline), 0)
	t.Logf("the live heap grew by at most %.1f MiB during the Put", float64(growth)/(1<<20))
	if growth > bound {
		t.Errorf("the live heap grew by %d MiB during a 64 MiB Put; want at most %d MiB", growth>>20, bound>>20)
	}

	baseline = liveHeap()
	r, err := b.Open(ctx, k)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer r.Close()
	got := sha256.New()
	read := &measuringReader{r: r, every: 4 << 20}
	if _, err := io.Copy(got, read); err != nil {
		t.Fatalf("reading the 64 MiB blob: %v", err)
	}
	want := sha256.New()
	io.Copy(want, newGenerator(size, 3))
	if !bytes.Equal(got.Sum(nil), want.Sum(nil)) {
		t.Errorf("the 64 MiB blob read back differs")
	}
	growth = max(int64(read.peak)-int64(baseline), 0)
	t.Logf("the live heap grew by at most %.1f MiB during the read", float64(growth)/(1<<20))
	if growth > bound {
		t.Errorf("the live heap grew by %d MiB reading a 64 MiB blob; want at most %d MiB", growth>>20, bound>>20)
	}
	if err := b.Delete(ctx, k); err != nil {
		t.Errorf("Delete: %v", err)
	}
}

// liveHeap is the size of the reachable heap: what a collection leaves.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// measuringReader records the largest live heap seen every `every` bytes.
type measuringReader struct {
	r           io.Reader
	every, next int64
	read        int64
	peak        uint64
}

func (m *measuringReader) Read(p []byte) (int, error) {
	if m.read >= m.next {
		m.peak = max(m.peak, liveHeap())
		m.next += m.every
	}
	n, err := m.r.Read(p)
	m.read += int64(n)
	return n, err
}

// generator gives size pseudo-random bytes from seed, the same each time,
// without holding them.
type generator struct {
	rng  *rand.ChaCha8
	left int64
}

func newGenerator(size int64, seed byte) *generator {
	return &generator{rng: rand.NewChaCha8([32]byte{seed}), left: size}
}

func (g *generator) Read(p []byte) (int, error) {
	if g.left == 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > g.left {
		p = p[:g.left]
	}
	n, _ := g.rng.Read(p)
	g.left -= int64(n)
	return n, nil
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	io.ReadFull(newGenerator(int64(n), byte(n)), b)
	return b
}

func put(t *testing.T, b files.Backend, key string, data []byte) {
	t.Helper()
	if _, err := b.Put(t.Context(), key, bytes.NewReader(data), "application/octet-stream"); err != nil {
		t.Fatalf("Put %s: %v", key, err)
	}
}

func readAll(t *testing.T, b files.Backend, key string) []byte {
	t.Helper()
	r, err := b.Open(t.Context(), key)
	if err != nil {
		t.Fatalf("Open %s: %v", key, err)
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("reading %s: %v", key, err)
	}
	return data
}
