package site

import (
	"bytes"
	"compress/gzip"

	"github.com/andybalholm/brotli"
)

// compress sets the brotli and gzip variants of f's identity bytes, keeping
// a variant only when it is smaller. The build ships its files' variants (X.br,
// X.gz); this makes them for what changes or is made at start-up: files
// rebased to the site's origin, the sitemap and robots.txt.
func (f *file) compress() error {
	var br, gz bytes.Buffer
	bw := brotli.NewWriterLevel(&br, brotli.BestCompression)
	if _, err := bw.Write(f.identity); err != nil {
		return err
	}
	if err := bw.Close(); err != nil {
		return err
	}
	gw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := gw.Write(f.identity); err != nil {
		return err
	}
	if err := gw.Close(); err != nil {
		return err
	}
	f.br, f.gz = nil, nil
	if br.Len() < len(f.identity) {
		f.br = br.Bytes()
	}
	if gz.Len() < len(f.identity) {
		f.gz = gz.Bytes()
	}
	return nil
}
