package site

import (
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"fmt"
	"net/url"
	"strings"

	"github.com/andybalholm/brotli"
)

// BuildOrigin is the origin the web build writes into absolute links
// (siteUrl in web/app/content/site.ts; a test keeps the two equal).
const BuildOrigin = "http://localhost:8080"

// Options adapt a built site to where it is deployed.
type Options struct {
	// Origin is the public origin of the site, scheme://host[:port], used in
	// absolute links (canonical URLs, share tags, feeds, the sitemap).
	// Empty means BuildOrigin.
	Origin string
}

// ParseOrigin checks a site URL given on the command line and returns it as
// an origin without a trailing slash.
func ParseOrigin(raw string) (string, error) {
	u, err := url.Parse(strings.TrimRight(raw, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("site URL %q: want http(s)://host[:port]", raw)
	}
	if u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", fmt.Errorf("site URL %q: want only scheme and host, no path, query or user", raw)
	}
	return u.Scheme + "://" + u.Host, nil
}

// textual reports whether a content type is text in which links may appear.
func textual(contentType string) bool {
	return strings.HasPrefix(contentType, "text/") || strings.Contains(contentType, "xml") || strings.Contains(contentType, "json")
}

// rebase rewrites BuildOrigin to origin in every text file and compresses
// the changed files again. It runs once at start-up, and only when the site
// is deployed at another origin than it was built for.
func (s *Site) rebase(origin string) error {
	old := []byte(BuildOrigin)
	for _, files := range []map[string]*file{s.pages, s.files} {
		for _, f := range files {
			if !textual(f.contentType) || !bytes.Contains(f.identity, old) {
				continue
			}
			rewritten := *f
			rewritten.identity = bytes.ReplaceAll(f.identity, old, []byte(origin))
			if err := rewritten.compress(); err != nil {
				return fmt.Errorf("rebase %s: %w", f.name, err)
			}
			rewritten.etag = etagOf(rewritten.identity)
			*f = rewritten
		}
	}
	return nil
}

// compress sets the brotli and gzip variants of f's identity bytes, keeping
// a variant only when it is smaller.
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

// addSitemap serves /sitemap.xml listing every public page, and a
// /robots.txt pointing to it unless the build ships its own.
func (s *Site) addSitemap(origin string) error {
	type entry struct {
		Loc string `xml:"loc"`
	}
	doc := struct {
		XMLName xml.Name `xml:"urlset"`
		NS      string   `xml:"xmlns,attr"`
		URLs    []entry  `xml:"url"`
	}{NS: "http://www.sitemaps.org/schemas/sitemap/0.9"}
	// Pages that ask not to be indexed (a form's confirmation or problem page) are left out.
	for _, p := range s.Pages() {
		if !s.pages[p].noindex {
			doc.URLs = append(doc.URLs, entry{Loc: origin + p})
		}
	}
	body, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	if err := s.addGenerated("sitemap.xml", append([]byte(xml.Header), body...)); err != nil {
		return err
	}
	if _, ok := s.files["/robots.txt"]; ok {
		return nil
	}
	return s.addGenerated("robots.txt", []byte("User-agent: *\nAllow: /\n\nSitemap: "+origin+"/sitemap.xml\n"))
}

func (s *Site) addGenerated(name string, body []byte) error {
	f := &file{
		name:         name,
		identity:     body,
		etag:         etagOf(body),
		contentType:  contentType(name),
		cacheControl: cacheHTML,
	}
	if err := f.compress(); err != nil {
		return fmt.Errorf("generate %s: %w", name, err)
	}
	s.files["/"+name] = f
	return nil
}
