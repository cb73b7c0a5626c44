package storage

import (
	"crypto/md5"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"hash"
	"io"
	"math"
	"mime"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"studio/internal/api"
)

// idleTimeout cuts a transfer that makes no progress for this long. A
// transfer that progresses may take as long as it needs: the server's own
// read and write timeouts (30 s, 60 s) are pushed back as bytes move.
const idleTimeout = 30 * time.Second

// deadlines pushes a connection's read or write deadline back as a
// transfer progresses (at most every few seconds).
type deadlines struct {
	set  func(time.Time) error
	next time.Time
}

func (d *deadlines) progress() {
	if d.set == nil {
		return // not a connection's transfer
	}
	if now := time.Now(); now.After(d.next) {
		_ = d.set(now.Add(idleTimeout)) // not every connection has deadlines (HTTP/2 in tests)
		d.next = now.Add(idleTimeout / 6)
	}
}

// progressWriter is the response writer of a download; it keeps the
// status answered.
type progressWriter struct {
	http.ResponseWriter
	d      deadlines
	status int
}

func (p *progressWriter) WriteHeader(status int) {
	if p.status == 0 {
		p.status = status
	}
	p.ResponseWriter.WriteHeader(status)
}

func newProgressWriter(w http.ResponseWriter) *progressWriter {
	return &progressWriter{ResponseWriter: w, d: deadlines{set: http.NewResponseController(w).SetWriteDeadline}}
}

func (p *progressWriter) Write(b []byte) (int, error) {
	if p.status == 0 {
		p.status = http.StatusOK
	}
	p.d.progress()
	return p.ResponseWriter.Write(b)
}

// The parts of a file sent by sendfile(2), between which the deadline is
// pushed back: the first of sendfileLeast, each next one twice the last (up
// to sendfileMost) while the client takes them within sendfileQuick. A
// slower client keeps getting the smallest, so that a transfer cut for no
// progress is one that takes less than 256 KiB in idleTimeout (9 KB/s);
// a fast one costs a few system calls per megabyte. (A first part of 64
// KiB measured slower: more CPU per megabyte, decision 27.)
const (
	sendfileLeast = 256 << 10
	sendfileMost  = 1 << 20
	sendfileQuick = time.Second
)

// ReadFrom sends a blob's file (an *os.File, under http.ServeContent's
// io.LimitedReader) by sendfile(2), in parts (above); anything else is
// written as Write does. (The limited reader's N is not brought down: it
// is io.CopyN's own.)
func (p *progressWriter) ReadFrom(r io.Reader) (int64, error) {
	if p.status == 0 {
		p.status = http.StatusOK
	}
	src, remain := r, int64(math.MaxInt64)
	if lr, ok := r.(*io.LimitedReader); ok {
		src, remain = lr.R, lr.N
	}
	if _, ok := src.(*os.File); !ok {
		return io.Copy(writerOnly{p}, r)
	}
	var sent int64
	for part := int64(sendfileLeast); remain > 0; {
		p.d.progress()
		start := time.Now()
		n, err := api.ReadFrom(p.ResponseWriter, &io.LimitedReader{R: src, N: min(remain, part)})
		sent, remain = sent+n, remain-n
		if err != nil || n == 0 {
			return sent, err
		}
		if time.Since(start) < sendfileQuick {
			part = min(2*part, sendfileMost)
		} else {
			part = sendfileLeast
		}
	}
	return sent, nil
}

// writerOnly hides its writer's ReadFrom from io.Copy.
type writerOnly struct{ io.Writer }

func (p *progressWriter) Unwrap() http.ResponseWriter { return p.ResponseWriter }

// errOverLimit ends an upload's body at its limit.
var errOverLimit = errors.New("storage: upload over the size limit")

// uploadReader reads an upload's body: it fails with errOverLimit past
// limit bytes (so the backend never takes more), hashes what it reads for
// the ETag, remembers a failure of the body itself (the client went away)
// and pushes the connection's read deadline back as bytes arrive.
type uploadReader struct {
	r       io.Reader
	left    int64
	md5     hash.Hash
	d       deadlines
	bodyErr error
}

// newUploadReader reads r, which arrives on the connection of w (nil for a
// body that does not come from a request).
func newUploadReader(w http.ResponseWriter, r io.Reader, limit int64) *uploadReader {
	u := &uploadReader{r: r, left: limit, md5: md5.New()}
	if w != nil {
		u.d.set = http.NewResponseController(w).SetReadDeadline
	}
	return u
}

func (u *uploadReader) Read(p []byte) (int, error) {
	u.d.progress()
	if int64(len(p)) > u.left+1 {
		p = p[:u.left+1]
	}
	n, err := u.r.Read(p)
	if int64(n) > u.left {
		return 0, errOverLimit
	}
	u.left -= int64(n)
	u.md5.Write(p[:n])
	if err != nil && err != io.EOF {
		u.bodyErr = err
	}
	return n, err
}

// etag is the ETag of what was read: its MD5, quoted.
func (u *uploadReader) etag() string { return `"` + hex.EncodeToString(u.md5.Sum(nil)) + `"` }

// upload is an upload's body and what its request says of it.
type upload struct {
	body         io.Reader
	contentType  string
	cacheControl string
	metadata     json.RawMessage
}

// maxFieldBytes bounds a form field and the metadata of an upload.
const maxFieldBytes = 64 << 10

// readUpload reads what comes before the bytes of an upload: a multipart
// form's fields (cacheControl, contentType, metadata) up to its file part,
// or a raw body's headers (Content-Type, Cache-Control, x-metadata in
// base64). A raw body whose Content-Length is over limit is refused at
// once.
func readUpload(r *http.Request, limit int64) (upload, *Error) {
	u := upload{cacheControl: "no-cache"}
	ct := r.Header.Get("Content-Type")
	if mt, _, _ := mime.ParseMediaType(ct); mt != "multipart/form-data" {
		u.body, u.contentType = r.Body, ct
		if u.contentType == "" {
			u.contentType = "application/octet-stream"
		}
		if cc := r.Header.Get("Cache-Control"); cc != "" {
			u.cacheControl = cc
		}
		if r.ContentLength > limit {
			return u, errTooLarge()
		}
		if m := r.Header.Get("x-metadata"); m != "" {
			raw, err := base64.StdEncoding.DecodeString(m)
			if err != nil {
				return u, errInvalidRequest("x-metadata must be JSON in base64")
			}
			u.metadata = raw
		}
		return u, checkMetadata(u.metadata)
	}
	form, err := r.MultipartReader()
	if err != nil {
		return u, errInvalidRequest("No content provided")
	}
	var fieldType string
	for {
		part, err := form.NextPart()
		if err != nil {
			return u, errInvalidRequest("No content provided")
		}
		if part.FileName() != "" || part.FormName() == "" { // supabase-js names its file ""
			u.body = part
			u.contentType = fieldType
			if u.contentType == "" {
				u.contentType = part.Header.Get("Content-Type")
			}
			if u.contentType == "" {
				u.contentType = "application/octet-stream"
			}
			return u, checkMetadata(u.metadata)
		}
		value, err := io.ReadAll(io.LimitReader(part, maxFieldBytes+1))
		if err != nil || len(value) > maxFieldBytes {
			return u, errInvalidRequest("Form field " + part.FormName() + " is too large")
		}
		switch part.FormName() {
		case "cacheControl":
			if v := string(value); v != "" {
				u.cacheControl = "max-age=" + v
				if _, err := strconv.Atoi(v); err != nil {
					u.cacheControl = v
				}
			}
		case "contentType":
			fieldType = string(value)
		case "metadata", "userMetadata":
			u.metadata = value
		}
	}
}

// checkMetadata refuses user metadata that is not a JSON object.
func checkMetadata(m json.RawMessage) *Error {
	if m == nil {
		return nil
	}
	var v map[string]any
	if len(m) > maxFieldBytes || json.Unmarshal(m, &v) != nil {
		return errInvalidRequest("metadata must be a JSON object")
	}
	return nil
}

// mimeAllowed reports whether contentType is one of allowed (type/subtype,
// or type/* for any subtype; parameters such as charset do not count).
func mimeAllowed(allowed []string, contentType string) bool {
	if len(allowed) == 0 {
		return true
	}
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	typ, sub, _ := strings.Cut(mt, "/")
	for _, a := range allowed {
		at, asub, _ := strings.Cut(strings.ToLower(strings.TrimSpace(a)), "/")
		if at == typ && (asub == "*" || asub == sub) {
			return true
		}
	}
	return false
}
