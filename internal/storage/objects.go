package storage

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	pathpkg "path"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"studio/internal/api"
	"studio/internal/files"
)

// newKey is the backend key of a new blob: every upload gets its own, so
// that a replacement never changes bytes a reader may be reading.
func newKey() string { return uuid.NewString() }

// upload answers POST /object/{bucket}/{name} (x-upsert: true replaces an
// object of that name), for staff.
func (s *Service) upload(req *request, path string) *Error {
	return s.put(req, path, req.r.Header.Get("x-upsert") == "true")
}

// update answers PUT /object/{bucket}/{name}, which replaces an object, for
// staff.
func (s *Service) update(req *request, path string) *Error { return s.put(req, path, true) }

// put stores the request's body as the object of path, for staff.
func (s *Service) put(req *request, path string, upsert bool) *Error {
	if req.staff == nil {
		return errRowLevelSecurity()
	}
	bucket, name, e := splitPath(path)
	if e != nil {
		return e
	}
	return s.store1(req, bucket, name, req.owner(), upsert)
}

// store1 stores the request's body as the object name of bucket: the bytes
// streamed to a new blob (cut off past the bucket's size limit), then the
// metadata committed, then the blob it replaced deleted. Answers {Id, Key}.
func (s *Service) store1(req *request, bucket, name, owner string, upsert bool) *Error {
	ctx, cancel := storeCtx(req.r)
	b, err := s.store.Bucket(ctx, bucket)
	cancel()
	if err != nil {
		return s.failed(req, err)
	}
	limit := s.cfg.MaxFileSize
	if b.FileSizeLimit != nil {
		limit = min(limit, *b.FileSizeLimit)
	}
	u, e := readUpload(req.r, limit)
	if e != nil {
		return e
	}
	if !mimeAllowed(b.AllowedMimeTypes, u.contentType) {
		return errMimeType(u.contentType)
	}
	body := newUploadReader(req.w, u.body, limit)
	o, err := s.putObject(req.r.Context(), files.Object{BucketID: bucket, Name: name, ContentType: u.contentType,
		CacheControl: u.cacheControl, UserMetadata: u.metadata, Owner: owner}, body, upsert)
	switch {
	case errors.Is(err, errOverLimit):
		return errTooLarge()
	case errors.Is(err, errBlobNotStored) && body.bodyErr != nil:
		return errInvalidRequest("The upload's body was cut off")
	case errors.Is(err, errBlobNotStored):
		s.cfg.Logger.Error("storage: put blob", "path", req.r.URL.Path, "err", err)
		return errInternal()
	case err != nil:
		return s.failed(req, err)
	}
	writeJSON(req.w, struct {
		ID  string `json:"Id"`
		Key string `json:"Key"`
	}{o.ID, bucket + "/" + name})
	return nil
}

// errBlobNotStored marks a failure to store an upload's bytes.
var errBlobNotStored = errors.New("storage: the bytes were not stored")

// putObject streams body into a new blob, then commits o (its bucket,
// name, type, cache control, metadata and owner set) as the object of that
// name, then deletes the blob it replaced (upsert; without, an object of
// that name is ErrObjectExists). It returns the object stored, with the ID
// of the one it replaced. errOverLimit: body ran past its limit.
func (s *Service) putObject(ctx context.Context, o files.Object, body *uploadReader, upsert bool) (files.Object, error) {
	o.Key = newKey()
	size, err := s.backend.Put(ctx, o.Key, body, o.ContentType)
	switch {
	case errors.Is(err, errOverLimit):
		return o, err
	case err != nil:
		return o, fmt.Errorf("%w: %w", errBlobNotStored, err)
	}
	now := s.cfg.Now()
	o.ID, o.Size, o.ETag, o.CreatedAt, o.UpdatedAt, o.LastAccessedAt = uuid.NewString(), size, body.etag(), now, now, now
	return s.commitObject(ctx, o, upsert)
}

// commitObject stores the metadata o of a blob already in the backend:
// with upsert it replaces an object of that name, whose blob it then
// deletes, and keeps its ID; without, such an object is ErrObjectExists.
// On a failure it deletes o's blob.
func (s *Service) commitObject(ctx context.Context, o files.Object, upsert bool) (files.Object, error) {
	storeCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), api.StoreTimeout)
	defer cancel()
	replaced, err := s.store.PutObject(storeCtx, o, upsert)
	if err != nil {
		s.deleteBlobs(ctx, []files.Object{o})
		return o, err
	}
	if replaced != nil {
		o.ID = replaced.ID
		s.deleteBlobs(ctx, []files.Object{*replaced})
	}
	return o, nil
}

// download answers GET and HEAD of /object/{bucket}/{name} and
// /object/authenticated/…: staff, or anyone for a public bucket.
func (s *Service) download(req *request, path string) *Error {
	return s.serveReadable(req, path, false)
}

// downloadPublic answers GET and HEAD of /object/public/{bucket}/{name}:
// public buckets only.
func (s *Service) downloadPublic(req *request, path string) *Error {
	return s.serveReadable(req, path, true)
}

// serveReadable answers the object of path when the request may read it;
// public asks for a public bucket.
func (s *Service) serveReadable(req *request, path string, public bool) *Error {
	b, name, e := s.readablePath(req, path, public)
	if e != nil {
		return e
	}
	if b.Public {
		return s.serveCounted(req, b.ID, name)
	}
	return s.serveObject(req, b.ID, name)
}

// readablePath is the bucket and name of path ("bucket/name") that the
// request may read; public asks for a public bucket (the /public/ routes).
func (s *Service) readablePath(req *request, path string, public bool) (files.Bucket, string, *Error) {
	bucket, name, e := splitPath(path)
	if e != nil {
		return files.Bucket{}, "", e
	}
	b, e := s.knownBucket(req, bucket)
	if e != nil {
		return b, "", e
	}
	if public && !b.Public {
		return b, "", errNoSuchBucket()
	}
	return b, name, nil
}

// Header fields of every object served: no type sniffing, and no script:
// an uploaded HTML or SVG page runs in a sandbox of its own (an opaque
// origin), never with the site's. Shared by every answer, with no spare
// capacity for an append.
var (
	objectCSP    = []string{"sandbox"}
	nosniff      = []string{"nosniff"}
	acceptRanges = []string{"bytes"}
)

// serveObject answers the object name of bucket (the caller may read it):
// its bytes through http.ServeContent (Range, If-None-Match,
// If-Modified-Since, HEAD), with its type, ETag, Last-Modified and
// Cache-Control; ?download makes it an attachment under its own name, ?download=name under name.
func (s *Service) serveObject(req *request, bucket, name string) *Error {
	_, e := s.serveObjectStatus(req, bucket, name)
	return e
}

// serveCounted is serveObject for a public bucket's object: a whole GET
// (200) counts as a download.
func (s *Service) serveCounted(req *request, bucket, name string) *Error {
	status, e := s.serveObjectStatus(req, bucket, name)
	if e == nil && status == http.StatusOK && req.r.Method == http.MethodGet {
		s.downloads.add(files.ObjectName{Bucket: bucket, Name: name})
	}
	return e
}

// serveObjectStatus is serveObject, also returning the status it answered.
func (s *Service) serveObjectStatus(req *request, bucket, name string) (int, *Error) {
	// A replacement committed between the read of the metadata and the
	// opening of the blob deletes the blob read of: read again, once, from
	// the store (the catalog may not have heard of it yet).
	for attempt := range 2 {
		o, err := s.object(req, bucket, name, attempt == 0)
		if err != nil {
			return 0, s.failed(req, err)
		}
		h := req.w.Header()
		h["Etag"] = []string{o.ETag}
		h["Cache-Control"] = []string{o.CacheControl}
		h["X-Content-Type-Options"] = nosniff
		h["Content-Security-Policy"] = objectCSP
		if notModified(req.r, o.ETag) {
			req.w.WriteHeader(http.StatusNotModified)
			return http.StatusNotModified, nil
		}
		f, whole, err := s.openBlob(req.r.Context(), o)
		if errors.Is(err, files.ErrBlobNotFound) {
			s.catalog.forget(bucket, name)
			continue
		}
		if err != nil {
			s.cfg.Logger.Error("storage: open blob", "path", req.r.URL.Path, "err", err)
			return 0, errInternal()
		}
		defer f.Close()
		h["Content-Type"] = []string{o.ContentType}
		if req.r.URL.RawQuery != "" {
			attachment(h, req.r.URL.Query(), name)
		}
		if whole != nil && wholeAsked(req.r) {
			return sendWhole(req, o, whole), nil
		}
		pw := newProgressWriter(req.w)
		http.ServeContent(pw, req.r, "", o.UpdatedAt, f)
		return pw.status, nil
	}
	return 0, errNoSuchKey()
}

// object reads the object name of bucket for a download: from the catalog,
// or from the store itself.
func (s *Service) object(req *request, bucket, name string, fromCatalog bool) (files.Object, error) {
	read := func() (files.Object, error) {
		ctx, cancel := storeCtx(req.r)
		defer cancel()
		return s.store.Object(ctx, bucket, name)
	}
	if fromCatalog {
		return s.catalog.object(bucket, name, read)
	}
	return read()
}

// sendWhole answers what http.ServeContent answers a request for all of o
// (wholeAsked), its bytes in memory, without its parsing and copies.
func sendWhole(req *request, o files.Object, whole []byte) int {
	h := req.w.Header()
	h["Accept-Ranges"] = acceptRanges
	h["Last-Modified"] = []string{o.UpdatedAt.UTC().Format(http.TimeFormat)}
	h["Content-Length"] = []string{strconv.Itoa(len(whole))}
	req.w.WriteHeader(http.StatusOK)
	if req.r.Method != http.MethodHead {
		_, _ = req.w.Write(whole)
	}
	return http.StatusOK
}

// attachment makes an answer an attachment when q asks for it: ?download
// under the object's own name, ?download=name under name.
func attachment(h http.Header, q url.Values, name string) {
	if !q.Has("download") {
		return
	}
	filename := q.Get("download")
	if filename == "" {
		filename = pathpkg.Base(name)
	}
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": filename}))
}

// wholeAsked tells whether r asks for a whole object with no condition
// (what http.ServeContent answers 200 with all its bytes).
func wholeAsked(r *http.Request) bool {
	for _, name := range []string{"Range", "If-Match", "If-Unmodified-Since", "If-None-Match", "If-Modified-Since"} {
		if _, ok := r.Header[name]; ok {
			return false
		}
	}
	return true
}

// notModified tells whether r only revalidates the object of etag, which
// is then answered 304 without opening its blob: a GET or HEAD whose
// If-None-Match names it. A request with If-Match or If-Unmodified-Since,
// which take precedence, is left to http.ServeContent, as is one with only
// If-Modified-Since.
func notModified(r *http.Request, etag string) bool {
	return (r.Method == http.MethodGet || r.Method == http.MethodHead) &&
		r.Header.Get("If-Match") == "" && r.Header.Get("If-Unmodified-Since") == "" &&
		api.ETagMatches(r.Header.Get("If-None-Match"), etag)
}

// staffObject returns the object of path ("bucket/name") for staff; to
// anyone else it does not exist.
func (s *Service) staffObject(req *request, path string) (files.Object, *Error) {
	bucket, name, e := splitPath(path)
	if e != nil {
		return files.Object{}, e
	}
	if req.staff == nil {
		return files.Object{}, errNoSuchKey()
	}
	ctx, cancel := storeCtx(req.r)
	defer cancel()
	o, err := s.store.Object(ctx, bucket, name)
	if err != nil {
		return o, s.failed(req, err)
	}
	return o, nil
}

// info answers GET /object/info/{bucket}/{name} (and /info/public/…, of a
// public bucket only, and /info/authenticated/…): the object's metadata.
func (s *Service) info(req *request, path string) *Error {
	path, public := strings.CutPrefix(path, "public/")
	if !public {
		path = strings.TrimPrefix(path, "authenticated/")
	}
	b, name, e := s.readablePath(req, path, public)
	if e != nil {
		return e
	}
	ctx, cancel := storeCtx(req.r)
	defer cancel()
	o, err := s.store.Object(ctx, b.ID, name)
	if err != nil {
		return s.failed(req, err)
	}
	req.w.Header().Set("ETag", o.ETag)
	req.w.Header().Set("Last-Modified", o.UpdatedAt.UTC().Format(http.TimeFormat))
	writeJSON(req.w, struct {
		ID           string     `json:"id"`
		Name         string     `json:"name"`
		Version      string     `json:"version"`
		BucketID     string     `json:"bucket_id"`
		Size         int64      `json:"size"`
		ContentType  string     `json:"content_type"`
		CacheControl string     `json:"cache_control"`
		ETag         string     `json:"etag"`
		Metadata     rawOrNull  `json:"metadata"`
		LastModified time.Time  `json:"last_modified"`
		CreatedAt    time.Time  `json:"created_at"`
		UpdatedAt    *time.Time `json:"updated_at"`
	}{o.ID, o.Name, o.Key, o.BucketID, o.Size, o.ContentType, o.CacheControl, o.ETag, rawOrNull(o.UserMetadata),
		o.UpdatedAt, o.CreatedAt, &o.UpdatedAt})
	return nil
}

// rawOrNull is JSON kept as it is, or null when empty.
type rawOrNull []byte

func (r rawOrNull) MarshalJSON() ([]byte, error) {
	if len(r) == 0 {
		return []byte("null"), nil
	}
	return r, nil
}

// metadataJSON is an object's metadata as Supabase's list gives it.
type metadataJSON struct {
	ETag           string    `json:"eTag"`
	Size           int64     `json:"size"`
	Mimetype       string    `json:"mimetype"`
	CacheControl   string    `json:"cacheControl"`
	LastModified   time.Time `json:"lastModified"`
	ContentLength  int64     `json:"contentLength"`
	HTTPStatusCode int       `json:"httpStatusCode"`
	// Downloads is this site's addition: the object's downloads from a
	// public bucket (Object.Downloads).
	Downloads int64 `json:"downloads"`
}

// fileObjectJSON is an entry of a list, or an object removed; a folder's
// fields other than its name are null.
type fileObjectJSON struct {
	Name           string        `json:"name"`
	ID             *string       `json:"id"`
	BucketID       string        `json:"bucket_id,omitempty"`
	Owner          *string       `json:"owner,omitempty"`
	UpdatedAt      *time.Time    `json:"updated_at"`
	CreatedAt      *time.Time    `json:"created_at"`
	LastAccessedAt *time.Time    `json:"last_accessed_at"`
	Metadata       *metadataJSON `json:"metadata"`
	UserMetadata   rawOrNull     `json:"user_metadata,omitempty"`
}

func toFileObjectJSON(name string, o *files.Object) fileObjectJSON {
	if o == nil {
		return fileObjectJSON{Name: name}
	}
	return fileObjectJSON{Name: name, ID: &o.ID, UpdatedAt: &o.UpdatedAt, CreatedAt: &o.CreatedAt, LastAccessedAt: &o.LastAccessedAt,
		Metadata: &metadataJSON{ETag: o.ETag, Size: o.Size, Mimetype: o.ContentType, CacheControl: o.CacheControl,
			LastModified: o.UpdatedAt, ContentLength: o.Size, HTTPStatusCode: http.StatusOK, Downloads: o.Downloads},
		UserMetadata: rawOrNull(o.UserMetadata)}
}

// listBody is the body of a list (supabase-js sends every field).
type listBody struct {
	Prefix string `json:"prefix"`
	Limit  *int   `json:"limit"`
	Offset int    `json:"offset"`
	SortBy struct {
		Column string `json:"column"`
		Order  string `json:"order"`
	} `json:"sortBy"`
	Search string `json:"search"`
}

// listObjects answers POST /object/list/{bucket}: the entries of a folder,
// for staff (none for anyone else, as Supabase's row-level security shows).
func (s *Service) listObjects(req *request, bucket string) *Error {
	var body listBody
	if e := decodeJSON(req.r, &body); e != nil {
		return e
	}
	if req.staff == nil {
		writeJSON(req.w, []fileObjectJSON{})
		return nil
	}
	if _, e := s.bucket(req, bucket); e != nil {
		return e
	}
	q := files.ListQuery{Prefix: body.Prefix, Search: body.Search, Limit: 100, Offset: max(body.Offset, 0),
		SortColumn: "name", Descending: body.SortBy.Order == "desc"}
	if q.Prefix != "" && q.Prefix[len(q.Prefix)-1] != '/' {
		q.Prefix += "/"
	}
	if body.Limit != nil {
		q.Limit = min(max(*body.Limit, 1), 1000)
	}
	switch body.SortBy.Column {
	case "created_at", "updated_at", "last_accessed_at":
		q.SortColumn = body.SortBy.Column
	}
	ctx, cancel := storeCtx(req.r)
	defer cancel()
	entries, err := s.store.ListObjects(ctx, bucket, q)
	if err != nil {
		return s.failed(req, err)
	}
	out := make([]fileObjectJSON, len(entries))
	for i, e := range entries {
		out[i] = toFileObjectJSON(e.Name, e.Object)
	}
	writeJSON(req.w, out)
	return nil
}

// transferBody is the body of a move or a copy.
type transferBody struct {
	BucketID          string `json:"bucketId"`
	SourceKey         string `json:"sourceKey"`
	DestinationKey    string `json:"destinationKey"`
	DestinationBucket string `json:"destinationBucket"`
}

// read decodes the body and checks its names.
func (t *transferBody) read(req *request) *Error {
	if req.staff == nil {
		return errRowLevelSecurity()
	}
	if e := decodeJSON(req.r, t); e != nil {
		return e
	}
	if t.DestinationBucket == "" {
		t.DestinationBucket = t.BucketID
	}
	for _, name := range []string{t.SourceKey, t.DestinationKey} {
		if !validName(name) {
			return errInvalidKey(name)
		}
	}
	return nil
}

// moveObject answers POST /object/move, for staff: the object renamed
// (the bytes stay where they are).
func (s *Service) moveObject(req *request) *Error {
	var t transferBody
	if e := t.read(req); e != nil {
		return e
	}
	ctx, cancel := storeCtx(req.r)
	defer cancel()
	if err := s.store.MoveObject(ctx, t.BucketID, t.SourceKey, t.DestinationBucket, t.DestinationKey, s.cfg.Now()); err != nil {
		return s.failed(req, err)
	}
	writeJSON(req.w, message{"Successfully moved"})
	return nil
}

// copyObject answers POST /object/copy, for staff (x-upsert: true replaces
// an object at the destination): {Id, Key}.
func (s *Service) copyObject(req *request) *Error {
	var t transferBody
	if e := t.read(req); e != nil {
		return e
	}
	ctx, cancel := storeCtx(req.r)
	src, err := s.store.Object(ctx, t.BucketID, t.SourceKey)
	cancel()
	if err != nil {
		return s.failed(req, err)
	}
	o := src
	now := s.cfg.Now()
	o.ID, o.BucketID, o.Name, o.Key, o.Owner = uuid.NewString(), t.DestinationBucket, t.DestinationKey, newKey(), req.owner()
	o.CreatedAt, o.UpdatedAt, o.LastAccessedAt = now, now, now
	if err := s.backend.Copy(req.r.Context(), src.Key, o.Key); err != nil {
		if errors.Is(err, files.ErrBlobNotFound) {
			return errNoSuchKey()
		}
		s.cfg.Logger.Error("storage: copy blob", "err", err)
		return errInternal()
	}
	o, err = s.commitObject(req.r.Context(), o, req.r.Header.Get("x-upsert") == "true")
	if err != nil {
		return s.failed(req, err)
	}
	writeJSON(req.w, struct {
		ID  string `json:"Id"`
		Key string `json:"Key"`
	}{o.ID, o.BucketID + "/" + o.Name})
	return nil
}

// deleteObjects answers DELETE /object/{bucket} (removeObjects) and
// /object/{bucket}/{name} (deleteObject).
func (s *Service) deleteObjects(req *request, path string) *Error {
	if bucket, name, _ := strings.Cut(path, "/"); name == "" {
		return s.removeObjects(req, bucket)
	}
	return s.deleteObject(req, path)
}

// removeObjects answers DELETE /object/{bucket} {prefixes}, for staff: the
// objects removed (names that match none are skipped).
func (s *Service) removeObjects(req *request, bucket string) *Error {
	if req.staff == nil {
		return errRowLevelSecurity()
	}
	var body struct {
		Prefixes []string `json:"prefixes"`
	}
	if e := decodeJSON(req.r, &body); e != nil {
		return e
	}
	if len(body.Prefixes) == 0 || len(body.Prefixes) > 1000 {
		return errInvalidRequest("prefixes must name 1 to 1000 objects")
	}
	removed, e := s.remove(req, bucket, body.Prefixes)
	if e != nil {
		return e
	}
	out := make([]fileObjectJSON, len(removed))
	for i := range removed {
		o := &removed[i]
		out[i] = toFileObjectJSON(o.Name, o)
		out[i].BucketID, out[i].Owner = o.BucketID, &o.Owner
	}
	writeJSON(req.w, out)
	return nil
}

// deleteObject answers DELETE /object/{bucket}/{name}, for staff.
func (s *Service) deleteObject(req *request, path string) *Error {
	if req.staff == nil {
		return errRowLevelSecurity()
	}
	bucket, name, e := splitPath(path)
	if e != nil {
		return e
	}
	removed, e := s.remove(req, bucket, []string{name})
	if e != nil {
		return e
	}
	if len(removed) == 0 {
		return errNoSuchKey()
	}
	writeJSON(req.w, message{"Successfully deleted"})
	return nil
}

// remove removes the named objects of bucket, then their blobs.
func (s *Service) remove(req *request, bucket string, names []string) ([]files.Object, *Error) {
	if _, e := s.bucket(req, bucket); e != nil {
		return nil, e
	}
	ctx, cancel := storeCtx(req.r)
	defer cancel()
	removed, err := s.store.RemoveObjects(ctx, bucket, names)
	if err != nil {
		return nil, s.failed(req, err)
	}
	s.deleteBlobs(req.r.Context(), removed)
	return removed, nil
}
