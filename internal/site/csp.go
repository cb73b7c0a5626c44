package site

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Policy is the Content-Security-Policy of the site: only its own origin, and
// for scripts and styles only its own files plus the inline elements whose
// SHA-256 hashes are given: the scripts a prerendered page carries (the
// theme, consent, image-fallback and early-search scripts that run before
// first paint, the loader of the full stylesheet, and Astro's island loader
// with its hydration directives) and its <style> of critical CSS. Style
// attributes stay refused: a hash admits only a <style> element. Fonts and
// connections fall back to default-src: naming them again would cost every
// page's first round trip some 36 bytes.
func Policy(inline InlineHashes) string {
	return strings.Join([]string{
		"default-src 'self'",
		"script-src 'self'" + sources(inline.Scripts),
		"style-src 'self'" + sources(inline.Styles),
		"img-src 'self' data:",
		"object-src 'none'",
		"base-uri 'self'",
		"form-action 'self'",
		"frame-ancestors 'none'",
	}, "; ")
}

// InlineHashes are the CSP source hashes ("sha256-…") of a page's inline
// scripts and <style> elements, each in document order without duplicates.
type InlineHashes struct {
	Scripts, Styles []string
}

func sources(hashes []string) string {
	var b strings.Builder
	for _, h := range hashes {
		b.WriteString(" '" + h + "'")
	}
	return b.String()
}

// inlineHashes returns the hashes of the inline scripts and styles of an HTML
// document.
func inlineHashes(doc []byte) (InlineHashes, error) {
	var hashes InlineHashes
	seen := map[string]bool{}
	add := func(list *[]string, text []byte) {
		sum := sha256.Sum256(text)
		h := "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
		if !seen[h] {
			seen[h] = true
			*list = append(*list, h)
		}
	}
	z := html.NewTokenizer(bytes.NewReader(doc))
	var inside *[]string // the list an element's text goes to, while in an inline script or style
	for {
		switch z.Next() {
		case html.ErrorToken:
			if z.Err() == io.EOF {
				return hashes, nil
			}
			return InlineHashes{}, z.Err()
		case html.StartTagToken:
			name, hasAttr := z.TagName()
			switch {
			case atom.Lookup(name) == atom.Script && runsInline(z, hasAttr):
				inside = &hashes.Scripts
			case atom.Lookup(name) == atom.Style:
				inside = &hashes.Styles
			default:
				inside = nil
			}
		case html.TextToken:
			if inside != nil {
				add(inside, z.Text())
			}
		case html.EndTagToken:
			inside = nil
		}
	}
}

// runsInline tells whether a <script> start tag is one whose inline text the
// browser runs, and so checks against script-src: not one with a src, nor a
// JSON data block (type application/ld+json, application/json), which the
// browser never runs and the policy need not admit (their hashes would only
// lengthen every page's header).
func runsInline(z *html.Tokenizer, hasAttr bool) bool {
	for hasAttr {
		var key, val []byte
		key, val, hasAttr = z.TagAttr()
		switch string(key) {
		case "src":
			return false
		case "type":
			if strings.HasSuffix(strings.ToLower(strings.TrimSpace(string(val))), "json") {
				return false
			}
		}
	}
	return true
}
