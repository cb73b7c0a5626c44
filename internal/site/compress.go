package site

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/andybalholm/brotli"
)

// The build ships its files' variants (X.br, X.gz); the site makes them at
// start-up for what changes or is made there: files rebased to the site's
// origin or showing a CAPTCHA, the sitemap and robots.txt. At the highest
// quality, as the build does (the first paint's budget, decision 0020, has
// no room for larger pages), that costs seconds of CPU, so the variants are
// kept between starts in Options.CacheDir (decision 0025).
//
// A variant depends on the bytes it encodes and nothing else, so the cache
// is addressed by content: DIR/SHA256.br and DIR/SHA256.gz, SHA256 being
// the hex SHA-256 of the identity bytes. A new build, site URL or CAPTCHA
// gives other bytes, so other names: nothing to invalidate. A cached
// variant is used only if it decodes to exactly those bytes, so a truncated
// or corrupt file is made again, and the files need no fsync; they are
// written to a temporary name and renamed, so a reader never sees half of one.

// compressStale sets the variants of the files in stale, from the cache in
// dir ("": none) or made anew, on every core. It then removes from dir what
// this start did not use (the variants of earlier builds and origins).
func compressStale(stale []*file, dir string, logger *slog.Logger) {
	if len(stale) == 0 {
		return
	}
	start := time.Now()
	if dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			logger.Warn("site: no cache of compressed pages; every start compresses them again", "err", err)
			dir = ""
		}
	}
	var (
		mu               sync.Mutex
		made, fromCache  int
		firstWriteFailed error
	)
	jobs := make(chan *file)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range jobs {
				cached, err := f.compress(dir)
				mu.Lock()
				if cached {
					fromCache++
				} else {
					made++
				}
				if err != nil && firstWriteFailed == nil {
					firstWriteFailed = err
				}
				mu.Unlock()
			}
		}()
	}
	for _, f := range stale {
		jobs <- f
	}
	close(jobs)
	wg.Wait()
	if firstWriteFailed != nil {
		logger.Warn("site: cannot keep compressed pages for the next start", "err", firstWriteFailed)
	}
	if dir != "" {
		prune(dir, stale)
	}
	logger.Info("site ready", "compressed", made, "from_cache", fromCache, "took", time.Since(start).Round(time.Millisecond).String())
}

// compress sets the brotli and gzip variants of f's identity bytes, keeping
// a variant only when it is smaller. cached tells whether they came from the
// cache in dir; err, whether they could not be written to it.
func (f *file) compress(dir string) (cached bool, err error) {
	key := cacheKey(f.identity)
	br, gz := readCached(dir, key, f.identity)
	cached = br != nil && gz != nil
	if !cached {
		br, gz = brotliOf(f.identity), gzipOf(f.identity)
		if dir != "" {
			err = writeAtomically(filepath.Join(dir, key+".br"), br)
			if err2 := writeAtomically(filepath.Join(dir, key+".gz"), gz); err == nil {
				err = err2
			}
		}
	}
	f.br, f.gz = nil, nil
	if len(br) < len(f.identity) {
		f.br = br
	}
	if len(gz) < len(f.identity) {
		f.gz = gz
	}
	return cached, err
}

func cacheKey(identity []byte) string {
	sum := sha256.Sum256(identity)
	return hex.EncodeToString(sum[:])
}

// readCached returns the cached variants of identity, each nil when missing
// or when it does not decode to identity.
func readCached(dir, key string, identity []byte) (br, gz []byte) {
	if dir == "" {
		return nil, nil
	}
	read := func(ext string, decoder func(io.Reader) (io.Reader, error)) []byte {
		b, err := os.ReadFile(filepath.Join(dir, key+ext))
		if err != nil {
			return nil
		}
		r, err := decoder(bytes.NewReader(b))
		if err != nil {
			return nil
		}
		// One byte more than identity, to see a variant that decodes to more.
		decoded, err := io.ReadAll(io.LimitReader(r, int64(len(identity))+1))
		if err != nil || !bytes.Equal(decoded, identity) {
			return nil
		}
		return b
	}
	br = read(".br", func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil })
	gz = read(".gz", func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) })
	return br, gz
}

func brotliOf(b []byte) []byte {
	var buf bytes.Buffer
	w := brotli.NewWriterLevel(&buf, brotli.BestCompression)
	_, _ = w.Write(b) // writes to a bytes.Buffer do not fail
	_ = w.Close()
	return buf.Bytes()
}

func gzipOf(b []byte) []byte {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression) // a valid level
	_, _ = w.Write(b)
	_ = w.Close()
	return buf.Bytes()
}

// writeAtomically writes b to name through a temporary file in its
// directory, so that name holds all of b or what it held before.
func writeAtomically(name string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), ".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(b)
	if err2 := tmp.Close(); err == nil {
		err = err2
	}
	if err == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
	}
	return err
}

// prune removes from dir every file but the variants of the files in used.
func prune(dir string, used []*file) {
	keep := map[string]bool{}
	for _, f := range used {
		key := cacheKey(f.identity)
		keep[key+".br"], keep[key+".gz"] = true, true
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !keep[e.Name()] {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
