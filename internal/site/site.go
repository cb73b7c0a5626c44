// Package site serves the prerendered web site: its pages, hashed assets and
// public files, with build-time brotli/gzip variants, validators, a cache
// policy per kind of file, and real 404 statuses for paths that do not exist.
package site

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"path"
	"sort"
	"strconv"
	"strings"

	"studio/internal/api"
	"studio/internal/redirect"
)

// Cache policies. Hashed assets never change under their name; HTML must be
// revalidated on every use so a deploy shows at once (the ETag keeps that cheap).
const (
	cacheImmutable = "public, max-age=31536000, immutable"
	cacheHTML      = "no-cache"
	cachePublic    = "public, max-age=3600"
)

// notFoundSegment is the last segment of the prerendered not-found pages:
// /404 for the whole site, and e.g. /products/404 ("Product Not Found") for
// unknown ids directly under /products.
const notFoundSegment = "404"

type file struct {
	name         string // path in the file system, for Content-Disposition
	identity     []byte
	br, gz       []byte
	etag         string // quoted strong validator of the identity bytes
	contentType  string
	cacheControl string
	csp          string // pages only: the policy with their inline scripts' and styles' hashes
	noindex      bool   // pages only: the page asks search engines not to index it
	download     bool
	stale        bool // its variants are made at start-up (compress.go)

	// The three representations, with their headers prepared by prepare.
	plain, gzip, brotli representation
}

// representation is one encoding of a file, ready to send.
type representation struct {
	body        []byte
	etag        string
	header      http.Header // for a full response
	notModified http.Header // for a 304
}

// prepare builds the representations of f once its bytes are final.
func (f *file) prepare() {
	f.plain = f.representation(f.identity, "")
	f.gzip = f.representation(f.gz, "gzip")
	f.brotli = f.representation(f.br, "br")
}

func (f *file) representation(body []byte, encoding string) representation {
	if body == nil {
		return representation{}
	}
	etag := f.etag
	if encoding != "" {
		// Each representation needs its own validator (RFC 9110 §8.8.3).
		etag = strings.TrimSuffix(etag, `"`) + "-" + encoding + `"`
	}
	field := func(v string) []string { return []string{v}[:1:1] }
	common := http.Header{
		"Cache-Control": field(f.cacheControl),
		"Etag":          field(etag),
	}
	if f.br != nil || f.gz != nil {
		common["Vary"] = field("Accept-Encoding")
	}
	if f.csp != "" {
		common["Content-Security-Policy"] = field(f.csp)
	}
	full := common.Clone()
	full["Content-Type"] = field(f.contentType)
	full["Content-Length"] = field(strconv.Itoa(len(body)))
	if encoding != "" {
		full["Content-Encoding"] = field(encoding)
	}
	if f.download {
		full["Content-Disposition"] = field(fmt.Sprintf("attachment; filename=%q", path.Base(f.name)))
	}
	return representation{body: body, etag: etag, header: full, notModified: common}
}

// Site is an http.Handler for a built site. It is immutable once made and safe
// for concurrent use.
type Site struct {
	pages map[string]*file // canonical URL path → page
	files map[string]*file // URL path → any other file
	ready chan struct{}    // closed once every file is prepared
}

// New indexes every file of fsys (the Astro build, post-processed by
// web/scripts/postbuild.mjs). Files named X.br and X.gz are the compressed
// variants of X. An X/index.html is the page of URL path /X. The site also
// serves a generated /sitemap.xml and /robots.txt.
//
// New returns once the files are read and rewritten for opts; the variants
// of the rewritten ones are then compressed in the background (compress.go),
// and requests wait for them: see Ready.
func New(fsys fs.FS, opts Options) (*Site, error) {
	s := &Site{pages: map[string]*file{}, files: map[string]*file{}, ready: make(chan struct{})}
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if IsCompressedCopy(name) {
			return nil // read with the file they belong to
		}
		f, err := readFile(fsys, name)
		if err != nil {
			return err
		}
		if urlPath, ok := pagePath(name); ok {
			f.cacheControl = cacheHTML
			hashes, err := inlineHashes(f.identity)
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			f.csp = Policy(hashes)
			f.noindex = bytes.Contains(f.identity, []byte(`<meta name="robots" content="noindex"`))
			s.pages[urlPath] = f
			return nil
		}
		s.files["/"+name] = f
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("index site: %w", err)
	}
	if s.pages["/"+notFoundSegment] == nil {
		return nil, errors.New("index site: the build has no /404 page")
	}
	origin := cmpOr(opts.Origin, BuildOrigin)
	if origin != BuildOrigin {
		s.rebase(origin)
	}
	if opts.Captcha != nil {
		s.withCaptcha(*opts.Captcha, opts.CaptchaPages)
	}
	if err := s.addSitemap(origin); err != nil {
		return nil, err
	}
	var all, stale []*file
	for _, files := range []map[string]*file{s.pages, s.files} {
		for _, f := range files {
			all = append(all, f)
			if f.stale {
				stale = append(stale, f)
			}
		}
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	go func() {
		compressStale(stale, opts.CacheDir, logger)
		for _, f := range all {
			f.prepare()
		}
		close(s.ready)
	}()
	return s, nil
}

// Ready is closed once the site serves without waiting: every file has its
// variants. Until then its requests wait, and /readyz says it is not ready.
func (s *Site) Ready() <-chan struct{} { return s.ready }

// Pages lists the URL paths of the prerendered pages, sorted, the not-found
// pages excluded.
func (s *Site) Pages() []string {
	var paths []string
	for p := range s.pages {
		if !isNotFoundPage(p) {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	return paths
}

func readFile(fsys fs.FS, name string) (*file, error) {
	body, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	f := &file{
		name:         name,
		identity:     body,
		etag:         etagOf(body),
		contentType:  ContentType(name),
		cacheControl: cachePublic,
		download:     strings.HasPrefix(name, "downloads/"),
	}
	if strings.HasPrefix(name, "assets/") {
		f.cacheControl = cacheImmutable
	}
	// A missing variant is normal: small or incompressible files have none.
	if f.br, err = fs.ReadFile(fsys, name+".br"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if f.gz, err = fs.ReadFile(fsys, name+".gz"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return f, nil
}

// etagOf is a strong validator of body: a quoted prefix of its SHA-256.
func etagOf(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + hex.EncodeToString(sum[:12]) + `"`
}

// pagePath maps "index.html" to "/" and "a/b/index.html" to "/a/b".
func pagePath(name string) (string, bool) {
	if name == "index.html" {
		return "/", true
	}
	dir, ok := strings.CutSuffix(name, "/index.html")
	return "/" + dir, ok
}

func isNotFoundPage(urlPath string) bool {
	return path.Base(urlPath) == notFoundSegment
}

// ServeHTTP answers GET and HEAD requests for the site, once it is ready.
func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	select {
	case <-s.ready:
	case <-r.Context().Done():
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	p := r.URL.Path
	if canonical, ok := canonicalPath(p); ok {
		// A path such as /\host/ or /%09/host/ has no page, and its
		// canonical form would send the browser to that host: not found.
		if location, ok := redirect.Location(canonical, r.URL.RawQuery); ok {
			w.Header().Set("Location", location)
			w.WriteHeader(http.StatusPermanentRedirect)
		} else {
			serve(w, r, s.notFoundPage(p), http.StatusNotFound)
		}
		return
	}
	if page, ok := s.pages[p]; ok {
		status := http.StatusOK
		if isNotFoundPage(p) {
			status = http.StatusNotFound
		}
		serve(w, r, page, status)
		return
	}
	if f, ok := s.files[p]; ok {
		serve(w, r, f, http.StatusOK)
		return
	}
	serve(w, r, s.notFoundPage(p), http.StatusNotFound)
}

// canonicalPath reports the canonical form of a non-canonical path: without a
// trailing slash and without a trailing index.html.
func canonicalPath(p string) (string, bool) {
	if p == "/" {
		return "", false
	}
	if trimmed, ok := strings.CutSuffix(p, "/index.html"); ok {
		return cmpOr(trimmed, "/"), true
	}
	if strings.HasSuffix(p, "/") {
		return cmpOr(strings.TrimRight(p, "/"), "/"), true
	}
	return "", false
}

func cmpOr(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

// notFoundPage picks the not-found page for p: the one of its parent route
// when there is one (an unknown product id gets "Product Not Found"), else
// the site's "Page Not Found".
func (s *Site) notFoundPage(p string) *file {
	if parent := path.Dir(p); parent != "/" {
		if page, ok := s.pages[path.Join(parent, notFoundSegment)]; ok {
			return page
		}
	}
	return s.pages["/"+notFoundSegment]
}

func serve(w http.ResponseWriter, r *http.Request, f *file, status int) {
	rep := &f.plain
	if f.brotli.body != nil || f.gzip.body != nil {
		switch pickEncoding(r.Header.Get("Accept-Encoding"), f.brotli.body != nil, f.gzip.body != nil) {
		case "br":
			rep = &f.brotli
		case "gzip":
			rep = &f.gzip
		}
	}
	h := w.Header()
	if status == http.StatusOK && api.ETagMatches(r.Header.Get("If-None-Match"), rep.etag) {
		copyHeader(h, rep.notModified)
		w.WriteHeader(http.StatusNotModified)
		return
	}
	copyHeader(h, rep.header)
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(rep.body)
	}
}

// copyHeader sets prepared fields. The values are shared between responses:
// they are never modified, and have no spare capacity for an append to use.
func copyHeader(dst, src http.Header) {
	for k, v := range src {
		dst[k] = v
	}
}

// pickEncoding chooses br, then gzip, among the codings the client accepts
// with a non-zero quality; "" means identity.
func pickEncoding(acceptEncoding string, haveBr, haveGzip bool) string {
	const unlisted = -1.0
	br, gz, star := unlisted, unlisted, unlisted
	for rest := acceptEncoding; rest != ""; {
		var part string
		part, rest, _ = strings.Cut(rest, ",")
		name, params, _ := strings.Cut(part, ";")
		q := qualityOf(params)
		switch name = strings.TrimSpace(name); {
		case strings.EqualFold(name, "br"):
			br = q
		case strings.EqualFold(name, "gzip"):
			gz = q
		case name == "*":
			star = q
		}
	}
	accepts := func(q float64) bool { return q > 0 || (q == unlisted && star > 0) }
	switch {
	case haveBr && accepts(br):
		return "br"
	case haveGzip && accepts(gz):
		return "gzip"
	}
	return ""
}

func qualityOf(params string) float64 {
	for rest := params; rest != ""; {
		var p string
		p, rest, _ = strings.Cut(rest, ";")
		k, v, found := strings.Cut(strings.TrimSpace(p), "=")
		if found && strings.EqualFold(strings.TrimSpace(k), "q") {
			q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				return 0
			}
			return q
		}
	}
	return 1
}

var contentTypes = map[string]string{
	".html":        "text/html; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".mjs":         "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".json":        "application/json",
	".webmanifest": "application/manifest+json",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".jpg":         "image/jpeg",
	".webp":        "image/webp",
	".avif":        "image/avif",
	".ico":         "image/x-icon",
	".woff2":       "font/woff2",
	".txt":         "text/plain; charset=utf-8",
	".xml":         "application/xml; charset=utf-8",
	".rss":         "application/rss+xml; charset=utf-8",
	".csv":         "text/csv; charset=utf-8",
	".md":          "text/markdown; charset=utf-8",
	".pdf":         "application/pdf",
}

// IsCompressedCopy tells whether the file name of the built site is the
// brotli or gzip copy of another (X.br, X.gz of X).
func IsCompressedCopy(name string) bool {
	return strings.HasSuffix(name, ".br") || strings.HasSuffix(name, ".gz")
}

// ContentType is the type of a file by its name's extension, from a fixed
// table rather than the host's mime.types, so the answer is the same on
// every machine.
func ContentType(name string) string {
	if t, ok := contentTypes[strings.ToLower(path.Ext(name))]; ok {
		return t
	}
	return "application/octet-stream"
}
