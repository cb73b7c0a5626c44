package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"studio/internal/changes"
	"studio/internal/fault"
	"studio/internal/files"
)

// The metadata of storage/v1 (package files): buckets and their objects.
// The bytes are the backend's; each object row names its blob by key.

var _ files.Store = (*DB)(nil)

const bucketColumns = `id, public, file_size_limit, allowed_mime_types, owner, created_at, updated_at`

func (s *DB) scanBucket(row scanner, b *files.Bucket) error {
	var limit sql.NullInt64
	var types sql.NullString
	if err := row.Scan(&b.ID, &b.Public, &limit, &types, &b.Owner, s.d.timeDest(&b.CreatedAt), s.d.timeDest(&b.UpdatedAt)); err != nil {
		return err
	}
	b.FileSizeLimit, b.AllowedMimeTypes = nil, nil
	if limit.Valid {
		b.FileSizeLimit = &limit.Int64
	}
	if types.Valid {
		return json.Unmarshal([]byte(types.String), &b.AllowedMimeTypes)
	}
	return nil
}

// bucketArgs are the values of the columns a create or an update sets.
func bucketArgs(b files.Bucket) (limit, types any) {
	if b.FileSizeLimit != nil {
		limit = *b.FileSizeLimit
	}
	if len(b.AllowedMimeTypes) > 0 {
		j, _ := json.Marshal(b.AllowedMimeTypes)
		types = string(j)
	}
	return limit, types
}

// ListBuckets implements files.Store.
func (s *DB) ListBuckets(ctx context.Context) ([]files.Bucket, error) {
	var out []files.Bucket
	err := s.query(ctx, "list buckets", `SELECT `+bucketColumns+` FROM storage_buckets ORDER BY id`, nil,
		func(rows *sql.Rows) error {
			var b files.Bucket
			err := s.scanBucket(rows, &b)
			out = append(out, b)
			return err
		})
	return out, err
}

// Bucket implements files.Store.
func (s *DB) Bucket(ctx context.Context, id string) (files.Bucket, error) {
	var b files.Bucket
	found := false
	err := s.query(ctx, "get bucket", `SELECT `+bucketColumns+` FROM storage_buckets WHERE id = ?`, []any{id},
		func(rows *sql.Rows) error { found = true; return s.scanBucket(rows, &b) })
	if err == nil && !found {
		err = files.ErrBucketNotFound
	}
	return b, err
}

// CreateBucket implements files.Store.
func (s *DB) CreateBucket(ctx context.Context, b files.Bucket) error {
	var outcome error
	err := s.writeChanges(ctx, "create bucket", func(ctx context.Context, tx *sql.Tx) ([]changes.Change, error) {
		limit, types := bucketArgs(b)
		res, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO storage_buckets (`+bucketColumns+`)
			VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`),
			b.ID, b.Public, limit, types, b.Owner, s.d.timeArg(b.CreatedAt), s.d.timeArg(b.UpdatedAt))
		if err != nil {
			return nil, err
		}
		outcome = noRowMeans(res, files.ErrBucketExists)
		return bucketChanged(changes.Insert, b.ID, outcome), nil
	})
	return cmp.Or(err, outcome)
}

// UpdateBucket implements files.Store.
func (s *DB) UpdateBucket(ctx context.Context, b files.Bucket) error {
	var outcome error
	err := s.writeChanges(ctx, "update bucket", func(ctx context.Context, tx *sql.Tx) ([]changes.Change, error) {
		limit, types := bucketArgs(b)
		res, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE storage_buckets
			SET public = ?, file_size_limit = ?, allowed_mime_types = ?, updated_at = ? WHERE id = ?`),
			b.Public, limit, types, s.d.timeArg(b.UpdatedAt), b.ID)
		if err != nil {
			return nil, err
		}
		outcome = noRowMeans(res, files.ErrBucketNotFound)
		return bucketChanged(changes.Update, b.ID, outcome), nil
	})
	return cmp.Or(err, outcome)
}

// DeleteBucket implements files.Store.
func (s *DB) DeleteBucket(ctx context.Context, id string) error {
	var outcome error
	err := s.writeChanges(ctx, "delete bucket", func(ctx context.Context, tx *sql.Tx) ([]changes.Change, error) {
		var n int
		if err := tx.QueryRowContext(ctx, s.d.rebind(`SELECT COUNT(*) FROM storage_objects WHERE bucket_id = ?`), id).Scan(&n); err != nil {
			return nil, err
		}
		if n > 0 {
			outcome = files.ErrBucketNotEmpty
			return nil, nil
		}
		res, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM storage_buckets WHERE id = ?`), id)
		if err != nil {
			return nil, err
		}
		outcome = noRowMeans(res, files.ErrBucketNotFound)
		return bucketChanged(changes.Delete, id, outcome), nil
	})
	return cmp.Or(err, outcome)
}

// EmptyBucket implements files.Store.
func (s *DB) EmptyBucket(ctx context.Context, id string) ([]files.Object, error) {
	var removed []files.Object
	var outcome error
	err := s.writeChanges(ctx, "empty bucket", func(ctx context.Context, tx *sql.Tx) ([]changes.Change, error) {
		var found string
		err := tx.QueryRowContext(ctx, s.d.rebind(`SELECT id FROM storage_buckets WHERE id = ?`+s.d.forUpdate), id).Scan(&found)
		if errors.Is(err, sql.ErrNoRows) {
			outcome = files.ErrBucketNotFound
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		removed, err = s.deleteObjectsWhere(ctx, tx, `bucket_id = ?`, id)
		// One change for the bucket's every object (a change each could be thousands).
		return bucketChanged(changes.Update, id, nil), err
	})
	return removed, cmp.Or(err, outcome)
}

// objectColumns are those an upload sets; objectSelect adds the counts.
const (
	objectColumns = `id, bucket_id, name, blob_key, size, content_type, cache_control, etag, user_metadata, owner, created_at, updated_at, last_accessed_at`
	objectSelect  = objectColumns + `, downloads`
)

func (s *DB) scanObject(row scanner, o *files.Object) error {
	var meta sql.NullString
	if err := row.Scan(&o.ID, &o.BucketID, &o.Name, &o.Key, &o.Size, &o.ContentType, &o.CacheControl, &o.ETag, &meta, &o.Owner,
		s.d.timeDest(&o.CreatedAt), s.d.timeDest(&o.UpdatedAt), s.d.timeDest(&o.LastAccessedAt), &o.Downloads); err != nil {
		return err
	}
	o.UserMetadata = nil
	if meta.Valid {
		o.UserMetadata = json.RawMessage(meta.String)
	}
	return nil
}

// objectsWhere returns the objects of a WHERE clause, by name; with lock,
// locked for the transaction's changes (forUpdate).
func (s *DB) objectsWhere(ctx context.Context, q queryer, lock bool, where string, args ...any) ([]files.Object, error) {
	query := `SELECT ` + objectSelect + ` FROM storage_objects WHERE ` + where + ` ORDER BY name`
	if lock {
		query += s.d.forUpdate
	}
	rows, err := q.QueryContext(ctx, s.d.rebind(query), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []files.Object
	for rows.Next() {
		var o files.Object
		if err := s.scanObject(rows, &o); err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

// deleteObjectsWhere deletes the objects of a WHERE clause and returns them.
func (s *DB) deleteObjectsWhere(ctx context.Context, tx *sql.Tx, where string, args ...any) ([]files.Object, error) {
	objects, err := s.objectsWhere(ctx, tx, true, where, args...)
	if err != nil || len(objects) == 0 {
		return objects, err
	}
	_, err = tx.ExecContext(ctx, s.d.rebind(`DELETE FROM storage_objects WHERE `+where), args...)
	return objects, err
}

// PutObject implements files.Store.
func (s *DB) PutObject(ctx context.Context, o files.Object, upsert bool) (*files.Object, error) {
	var replaced *files.Object
	var outcome error
	err := s.writeChanges(ctx, "put object", func(ctx context.Context, tx *sql.Tx) ([]changes.Change, error) {
		replaced, outcome = nil, nil
		var n int
		if err := tx.QueryRowContext(ctx, s.d.rebind(`SELECT COUNT(*) FROM storage_buckets WHERE id = ?`), o.BucketID).Scan(&n); err != nil {
			return nil, err
		}
		if n == 0 {
			outcome = files.ErrBucketNotFound
			return nil, nil
		}
		old, err := s.objectsWhere(ctx, tx, true, `bucket_id = ? AND name = ?`, o.BucketID, o.Name)
		if err != nil {
			return nil, err
		}
		var meta any
		if o.UserMetadata != nil {
			meta = string(o.UserMetadata)
		}
		if len(old) == 1 {
			if !upsert {
				outcome = files.ErrObjectExists
				return nil, nil
			}
			replaced = &old[0]
			_, err = tx.ExecContext(ctx, s.d.rebind(`UPDATE storage_objects SET blob_key = ?, size = ?, content_type = ?,
				cache_control = ?, etag = ?, user_metadata = ?, owner = ?, updated_at = ?, last_accessed_at = ? WHERE id = ?`),
				o.Key, o.Size, o.ContentType, o.CacheControl, o.ETag, meta, o.Owner, s.d.timeArg(o.UpdatedAt), s.d.timeArg(o.LastAccessedAt), replaced.ID)
			return []changes.Change{objectChanged(changes.Update, o.BucketID, o.Name)}, err
		}
		res, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO storage_objects (`+objectColumns+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (bucket_id, name) DO NOTHING`),
			o.ID, o.BucketID, o.Name, o.Key, o.Size, o.ContentType, o.CacheControl, o.ETag, meta, o.Owner,
			s.d.timeArg(o.CreatedAt), s.d.timeArg(o.UpdatedAt), s.d.timeArg(o.LastAccessedAt))
		if err != nil {
			return nil, err
		}
		// A concurrent upload of the same name committed first (PostgreSQL).
		if outcome = noRowMeans(res, files.ErrObjectExists); outcome != nil {
			return nil, nil
		}
		return []changes.Change{objectChanged(changes.Insert, o.BucketID, o.Name)}, nil
	})
	if err == nil && outcome == nil {
		return replaced, nil
	}
	return nil, cmp.Or(err, outcome)
}

// Object implements files.Store.
func (s *DB) Object(ctx context.Context, bucket, name string) (files.Object, error) {
	var o files.Object
	found := false
	err := s.query(ctx, "get object", `SELECT `+objectSelect+` FROM storage_objects WHERE bucket_id = ? AND name = ?`,
		[]any{bucket, name}, func(rows *sql.Rows) error { found = true; return s.scanObject(rows, &o) })
	if err == nil && !found {
		err = files.ErrObjectNotFound
	}
	return o, err
}

// ListObjects implements files.Store: Supabase's list. It reads every
// object in the folder q.Prefix (exactly) whose name there starts with
// q.Search (case-insensitively for ASCII letters, as lower() does on both
// engines: PostgreSQL's on a COLLATE "C" column too) and makes the
// folder's entries of them.
func (s *DB) ListObjects(ctx context.Context, bucket string, q files.ListQuery) ([]files.Entry, error) {
	start := asciiLower(q.Prefix + q.Search)
	var objects []files.Object
	err := s.query(ctx, "list objects", `SELECT `+objectSelect+` FROM storage_objects
		WHERE bucket_id = ? AND lower(name) LIKE ? ESCAPE '!' ORDER BY name`,
		[]any{bucket, likePrefix(start)}, func(rows *sql.Rows) error {
			var o files.Object
			if err := s.scanObject(rows, &o); err != nil || !strings.HasPrefix(o.Name, q.Prefix) {
				return err // the folder's own case only: C/ is not c/
			}
			objects = append(objects, o)
			return nil
		})
	if err != nil {
		return nil, err
	}
	return folderEntries(objects, q), nil
}

// folderEntries are the entries of the folder q.Prefix among objects (all
// in it or below it), sorted and paged as q says: by name, folders and
// objects together, case-insensitively; by another column, the folders
// first (by name in the same order), then the objects.
func folderEntries(objects []files.Object, q files.ListQuery) []files.Entry {
	var folders, leaves []files.Entry
	seen := map[string]bool{}
	for i := range objects {
		rest := objects[i].Name[len(q.Prefix):]
		if folder, _, ok := strings.Cut(rest, "/"); ok {
			if !seen[folder] {
				seen[folder] = true
				folders = append(folders, files.Entry{Name: folder})
			}
			continue
		}
		leaves = append(leaves, files.Entry{Name: rest, Object: &objects[i]})
	}
	byName := func(a, b files.Entry) int {
		return cmp.Or(cmp.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)), cmp.Compare(a.Name, b.Name))
	}
	direction := func(c int) int {
		if q.Descending {
			return -c
		}
		return c
	}
	var entries []files.Entry
	if q.SortColumn == "" || q.SortColumn == "name" {
		entries = append(folders, leaves...)
		slices.SortStableFunc(entries, func(a, b files.Entry) int { return direction(byName(a, b)) })
	} else {
		slices.SortStableFunc(folders, func(a, b files.Entry) int { return direction(byName(a, b)) })
		column := func(o *files.Object) time.Time {
			switch q.SortColumn {
			case "created_at":
				return o.CreatedAt
			case "last_accessed_at":
				return o.LastAccessedAt
			}
			return o.UpdatedAt
		}
		slices.SortStableFunc(leaves, func(a, b files.Entry) int {
			return direction(cmp.Or(column(a.Object).Compare(column(b.Object)), byName(a, b)))
		})
		entries = append(folders, leaves...)
	}
	if q.Offset >= len(entries) {
		return nil
	}
	entries = entries[q.Offset:]
	if q.Limit > 0 && q.Limit < len(entries) {
		entries = entries[:q.Limit]
	}
	return entries
}

// asciiLower lowers ASCII letters only, as lower() does on SQLite and on a
// COLLATE "C" column of PostgreSQL.
func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

// likePrefix is the LIKE pattern (with ESCAPE '!') of the strings that
// start with s.
func likePrefix(s string) string {
	return strings.NewReplacer("!", "!!", "%", "!%", "_", "!_").Replace(s) + "%"
}

// MoveObject implements files.Store.
func (s *DB) MoveObject(ctx context.Context, fromBucket, from, toBucket, to string, at time.Time) error {
	var outcome error
	err := s.writeChanges(ctx, "move object", func(ctx context.Context, tx *sql.Tx) ([]changes.Change, error) {
		outcome = nil
		var n int
		if err := tx.QueryRowContext(ctx, s.d.rebind(`SELECT COUNT(*) FROM storage_buckets WHERE id = ?`), toBucket).Scan(&n); err != nil {
			return nil, err
		}
		if n == 0 {
			outcome = files.ErrBucketNotFound
			return nil, nil
		}
		res, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE storage_objects SET bucket_id = ?, name = ?, updated_at = ?
			WHERE bucket_id = ? AND name = ?`), toBucket, to, s.d.timeArg(at), fromBucket, from)
		if err != nil {
			return nil, err
		}
		if outcome = noRowMeans(res, files.ErrObjectNotFound); outcome != nil {
			return nil, nil
		}
		return []changes.Change{objectChanged(changes.Delete, fromBucket, from), objectChanged(changes.Insert, toBucket, to)}, nil
	})
	if err != nil && fault.KindOf(err) == fault.Conflict { // the destination name is taken
		return fmt.Errorf("%w: %w", files.ErrObjectExists, err)
	}
	return cmp.Or(err, outcome)
}

// RemoveObjects implements files.Store.
func (s *DB) RemoveObjects(ctx context.Context, bucket string, names []string) ([]files.Object, error) {
	var removed []files.Object
	err := s.writeChanges(ctx, "remove objects", func(ctx context.Context, tx *sql.Tx) ([]changes.Change, error) {
		removed = nil
		var made []changes.Change
		for _, name := range names {
			gone, err := s.deleteObjectsWhere(ctx, tx, `bucket_id = ? AND name = ?`, bucket, name)
			if err != nil {
				return nil, err
			}
			removed = append(removed, gone...)
			if len(gone) > 0 {
				made = append(made, objectChanged(changes.Delete, bucket, name))
			}
		}
		if len(made) > maxObjectChanges { // one change of the bucket says as much
			made = bucketChanged(changes.Update, bucket, nil)
		}
		return made, nil
	})
	return removed, err
}

// maxObjectChanges bounds the changes one write announces of a bucket's
// objects; more are announced as one change of the bucket, so that a
// removal of many files neither sends as many notifications nor fills the
// buffer of the bus's other listeners (realtime's).
const maxObjectChanges = 100

// bucketChanged is the change of bucket id made by a write whose outcome
// is refused (none when it is not nil). It names the bucket and all its
// objects: every server forgets what it knew of them (package storage).
func bucketChanged(typ, id string, refused error) []changes.Change {
	if refused != nil {
		return nil
	}
	return []changes.Change{change(files.BucketChanges, typ, id)}
}

// objectChanged is the change of the object name of bucket.
func objectChanged(typ, bucket, name string) changes.Change {
	return change(files.ObjectChanges, typ, bucket, name)
}

// noRowMeans is refusal when res changed no row, else nil.
func noRowMeans(res sql.Result, refusal error) error {
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return refusal
	}
	return nil
}

// CountDownloads implements files.Store.
func (s *DB) CountDownloads(ctx context.Context, counts map[files.ObjectName]int64) error {
	return s.write(ctx, "count downloads", func(ctx context.Context, tx *sql.Tx) error {
		for n, c := range counts {
			if _, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE storage_objects SET downloads = downloads + ? WHERE bucket_id = ? AND name = ?`),
				c, n.Bucket, n.Name); err != nil {
				return err
			}
		}
		return nil
	})
}
