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
// for scripts only its own files plus the inline scripts whose SHA-256 hashes
// are given (those a prerendered page carries: the theme, consent,
// image-fallback and early-search scripts that run before first paint, and
// Astro's island loader with its hydration directives).
func Policy(scriptHashes ...string) string {
	script := "script-src 'self'"
	for _, h := range scriptHashes {
		script += " '" + h + "'"
	}
	return strings.Join([]string{
		"default-src 'self'",
		script,
		"style-src 'self'",
		"img-src 'self' data:",
		"font-src 'self'",
		"connect-src 'self'",
		"object-src 'none'",
		"base-uri 'self'",
		"form-action 'self'",
		"frame-ancestors 'none'",
	}, "; ")
}

// inlineScriptHashes returns the CSP source hashes ("sha256-…") of the inline
// scripts in an HTML document, in document order, without duplicates.
func inlineScriptHashes(doc []byte) ([]string, error) {
	var hashes []string
	seen := map[string]bool{}
	z := html.NewTokenizer(bytes.NewReader(doc))
	inInlineScript := false
	for {
		switch z.Next() {
		case html.ErrorToken:
			if z.Err() == io.EOF {
				return hashes, nil
			}
			return nil, z.Err()
		case html.StartTagToken:
			name, hasAttr := z.TagName()
			inInlineScript = atom.Lookup(name) == atom.Script && !hasSrc(z, hasAttr)
		case html.TextToken:
			if inInlineScript {
				sum := sha256.Sum256(z.Text())
				h := "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
				if !seen[h] {
					seen[h] = true
					hashes = append(hashes, h)
				}
			}
		case html.EndTagToken:
			inInlineScript = false
		}
	}
}

func hasSrc(z *html.Tokenizer, hasAttr bool) bool {
	for hasAttr {
		var key []byte
		key, _, hasAttr = z.TagAttr()
		if string(key) == "src" {
			return true
		}
	}
	return false
}
