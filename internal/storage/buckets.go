package storage

import (
	"cmp"
	"context"
	"encoding/json"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"studio/internal/files"
)

// bucketJSON is a bucket as Supabase answers it.
type bucketJSON struct {
	ID               string    `json:"id"`
	Name             string    `json:"name"`
	Owner            string    `json:"owner"`
	Public           bool      `json:"public"`
	Type             string    `json:"type"`
	FileSizeLimit    *int64    `json:"file_size_limit"`
	AllowedMimeTypes []string  `json:"allowed_mime_types"`
	CreatedAt        time.Time `json:"created_at"`
	UpdatedAt        time.Time `json:"updated_at"`
}

func toBucketJSON(b files.Bucket) bucketJSON {
	return bucketJSON{ID: b.ID, Name: b.ID, Owner: b.Owner, Public: b.Public, Type: "STANDARD",
		FileSizeLimit: b.FileSizeLimit, AllowedMimeTypes: b.AllowedMimeTypes, CreatedAt: b.CreatedAt, UpdatedAt: b.UpdatedAt}
}

// listBuckets answers GET /bucket?limit&offset&sortColumn&sortOrder&search:
// every bucket for staff; none for anyone else (as Supabase's row-level
// security shows them none).
func (s *Service) listBuckets(req *request) *Error {
	if req.staff == nil {
		writeJSON(req.w, []bucketJSON{})
		return nil
	}
	q := req.r.URL.Query()
	ctx, cancel := storeCtx(req.r)
	defer cancel()
	all, err := s.store.ListBuckets(ctx)
	if err != nil {
		return s.failed(req, err)
	}
	search := strings.ToLower(q.Get("search"))
	all = slices.DeleteFunc(all, func(b files.Bucket) bool { return !strings.Contains(strings.ToLower(b.ID), search) })
	key := func(b files.Bucket) string {
		switch q.Get("sortColumn") {
		case "created_at":
			return b.CreatedAt.Format(time.RFC3339Nano)
		case "updated_at":
			return b.UpdatedAt.Format(time.RFC3339Nano)
		}
		return b.ID
	}
	slices.SortStableFunc(all, func(a, b files.Bucket) int {
		c := cmp.Compare(key(a), key(b))
		if q.Get("sortOrder") == "desc" {
			return -c
		}
		return c
	})
	offset, _ := strconv.Atoi(q.Get("offset"))
	all = all[min(max(offset, 0), len(all)):]
	if limit, err := strconv.Atoi(q.Get("limit")); err == nil && limit >= 0 && limit < len(all) {
		all = all[:limit]
	}
	out := make([]bucketJSON, len(all))
	for i, b := range all {
		out[i] = toBucketJSON(b)
	}
	writeJSON(req.w, out)
	return nil
}

// getBucket answers GET /bucket/{id}, for staff.
func (s *Service) getBucket(req *request, id string) *Error {
	if req.staff == nil {
		return errNoSuchBucket()
	}
	b, e := s.bucket(req, id)
	if e != nil {
		return e
	}
	writeJSON(req.w, toBucketJSON(b))
	return nil
}

// bucketBody is the body of a bucket's creation or update. A field left out
// of an update keeps its value; null clears it.
type bucketBody struct {
	ID               string          `json:"id"`
	Name             string          `json:"name"`
	Public           *bool           `json:"public"`
	FileSizeLimit    json.RawMessage `json:"file_size_limit"`
	AllowedMimeTypes json.RawMessage `json:"allowed_mime_types"`
}

// apply sets on b what body says.
func (body bucketBody) apply(b *files.Bucket) *Error {
	if body.Public != nil {
		b.Public = *body.Public
	}
	if body.FileSizeLimit != nil {
		limit, e := parseFileSizeLimit(body.FileSizeLimit)
		if e != nil {
			return e
		}
		b.FileSizeLimit = limit
	}
	if body.AllowedMimeTypes != nil {
		var types []string
		if err := json.Unmarshal(body.AllowedMimeTypes, &types); err != nil {
			return errInvalidRequest("body/allowed_mime_types must be an array of strings")
		}
		b.AllowedMimeTypes = slices.DeleteFunc(types, func(t string) bool { return t == "" })
		for _, t := range b.AllowedMimeTypes {
			if typ, sub, ok := strings.Cut(t, "/"); !ok || typ == "" || sub == "" {
				return errInvalidRequest("allowed_mime_types: " + t + " is not a type/subtype")
			}
		}
	}
	return nil
}

var fileSizePattern = regexp.MustCompile(`^(?i)([0-9]+(?:\.[0-9]+)?)(gb|mb|kb|b)$`)

// parseFileSizeLimit reads a bucket's file_size_limit: null, a number of
// bytes, or a string such as "20MB" (decimal units, as Supabase reads them).
// Zero is no limit, as null.
func parseFileSizeLimit(raw json.RawMessage) (*int64, *Error) {
	invalid := errInvalidRequest("Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B")
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, invalid
	}
	var n float64
	switch v := v.(type) {
	case nil:
		return nil, nil
	case float64:
		n = v
	case string:
		m := fileSizePattern.FindStringSubmatch(v)
		if m == nil {
			return nil, invalid
		}
		n, _ = strconv.ParseFloat(m[1], 64)
		n *= map[string]float64{"gb": 1e9, "mb": 1e6, "kb": 1e3, "b": 1}[strings.ToLower(m[2])]
	default:
		return nil, invalid
	}
	if n = math.Round(n); n < 0 || n > 1<<62 {
		return nil, invalid
	}
	if n == 0 {
		return nil, nil
	}
	limit := int64(n)
	return &limit, nil
}

// createBucket answers POST /bucket, for staff: {name}.
func (s *Service) createBucket(req *request) *Error {
	if req.staff == nil {
		return errRowLevelSecurity()
	}
	var body bucketBody
	if e := decodeJSON(req.r, &body); e != nil {
		return e
	}
	id := cmp.Or(body.ID, body.Name)
	if id == "" {
		return errInvalidRequest("body must have required property 'name'")
	}
	if !validBucketName(id) {
		return errInvalidBucketName()
	}
	now := s.cfg.Now()
	b := files.Bucket{ID: id, Owner: req.owner(), CreatedAt: now, UpdatedAt: now}
	if e := body.apply(&b); e != nil {
		return e
	}
	ctx, cancel := storeCtx(req.r)
	defer cancel()
	if err := s.store.CreateBucket(ctx, b); err != nil {
		return s.failed(req, err)
	}
	writeJSON(req.w, struct {
		Name string `json:"name"`
	}{id})
	return nil
}

// updateBucket answers PUT /bucket/{id}, for staff.
func (s *Service) updateBucket(req *request, id string) *Error {
	if req.staff == nil {
		return errRowLevelSecurity()
	}
	var body bucketBody
	if e := decodeJSON(req.r, &body); e != nil {
		return e
	}
	b, e := s.bucket(req, id)
	if e != nil {
		return e
	}
	if e := body.apply(&b); e != nil {
		return e
	}
	b.UpdatedAt = s.cfg.Now()
	ctx, cancel := storeCtx(req.r)
	defer cancel()
	if err := s.store.UpdateBucket(ctx, b); err != nil {
		return s.failed(req, err)
	}
	writeJSON(req.w, message{"Successfully updated"})
	return nil
}

// emptyBucket answers POST /bucket/{id}/empty, for staff: every object
// removed, then their blobs.
func (s *Service) emptyBucket(req *request, id string) *Error {
	if req.staff == nil {
		return errRowLevelSecurity()
	}
	ctx, cancel := storeCtx(req.r)
	defer cancel()
	removed, err := s.store.EmptyBucket(ctx, id)
	if err != nil {
		return s.failed(req, err)
	}
	s.deleteBlobs(req.r.Context(), removed)
	writeJSON(req.w, message{"Successfully emptied"})
	return nil
}

// deleteBucket answers DELETE /bucket/{id}, for staff; a bucket that holds
// objects is refused.
func (s *Service) deleteBucket(req *request, id string) *Error {
	if req.staff == nil {
		return errRowLevelSecurity()
	}
	ctx, cancel := storeCtx(req.r)
	defer cancel()
	if err := s.store.DeleteBucket(ctx, id); err != nil {
		return s.failed(req, err)
	}
	writeJSON(req.w, message{"Successfully deleted"})
	return nil
}

// deleteBlobs deletes the blobs of objects the store no longer names; a
// failure leaves an orphan blob, which is logged.
func (s *Service) deleteBlobs(ctx context.Context, objects []files.Object) {
	for _, o := range objects {
		// Even when the caller has gone: the store no longer names them.
		if err := s.backend.Delete(context.WithoutCancel(ctx), o.Key); err != nil {
			s.cfg.Logger.Warn("storage: blob left behind", "key", o.Key, "err", err)
		}
	}
}
