// Package files holds the nouns of the files staff manage and the site
// serves: buckets, objects, the list query, the Store that keeps their
// metadata (package store, both engines) and the Backend that keeps their
// bytes (packages storage/disk and storage/s3), and the refusals of both.
// It speaks no protocol: package storage answers /storage/v1 with them.
package files

import (
	"context"
	"encoding/json"
	"time"

	"studio/internal/fault"
)

// Bucket is a bucket's metadata.
type Bucket struct {
	ID     string
	Public bool // anyone may read its objects
	// FileSizeLimit bounds each object's size in bytes; nil: no limit of
	// its own.
	FileSizeLimit *int64
	// AllowedMimeTypes are the content types its objects may have
	// (type/subtype, or type/* for any subtype); empty: any.
	AllowedMimeTypes []string
	Owner            string // the staff user who created it
	CreatedAt        time.Time
	UpdatedAt        time.Time
}

// Object is an object's metadata; its bytes are the backend's blob under Key.
type Object struct {
	ID           string
	BucketID     string
	Name         string // the path in the bucket, as given (UTF-8)
	Key          string // the backend's key of its bytes
	Size         int64
	ContentType  string
	CacheControl string // as sent in Cache-Control on download
	ETag         string // quoted, as sent in ETag
	// UserMetadata is the JSON object the uploader attached; nil: none.
	UserMetadata   json.RawMessage
	Owner          string // the staff user who uploaded it; "" for a signed upload URL's
	CreatedAt      time.Time
	UpdatedAt      time.Time
	LastAccessedAt time.Time
	// Downloads counts its downloads from a public bucket answered whole
	// (200), across replacements of its bytes; up to a few seconds late.
	Downloads int64
}

// The tables whose changes (package changes) the store announces when a
// bucket or an object changes: a bucket's Key is its id, and names all its
// objects too; an object's is its bucket and name.
const (
	BucketChanges = "storage_buckets"
	ObjectChanges = "storage_objects"
)

// ObjectName names an object: its bucket and its path in it.
type ObjectName struct{ Bucket, Name string }

// ListQuery chooses the entries of a list, as Supabase's list does.
type ListQuery struct {
	// Prefix is the folder listed ("" the bucket's root, else a path that
	// ends with "/").
	Prefix string
	// Search keeps the entries whose name (relative to Prefix) starts with
	// it, case-insensitively.
	Search string
	Limit  int
	Offset int
	// SortColumn is name, created_at, updated_at or last_accessed_at.
	SortColumn string
	Descending bool
}

// Entry is one entry of a list: an object directly in the folder listed,
// or a folder in it (Object nil). Name is relative to the folder listed.
type Entry struct {
	Name   string
	Object *Object
}

// The store's refusals.
var (
	ErrBucketNotFound = fault.New(fault.NotFound, "bucket not found")
	ErrObjectNotFound = fault.New(fault.NotFound, "object not found")
	ErrBucketExists   = fault.New(fault.Conflict, "bucket already exists")
	ErrObjectExists   = fault.New(fault.Conflict, "object already exists")
	ErrBucketNotEmpty = fault.New(fault.Conflict, "bucket is not empty")
)

// Store keeps the metadata of buckets and objects (package store, both
// engines). Each write is one transaction.
type Store interface {
	// ListBuckets returns every bucket, by id.
	ListBuckets(ctx context.Context) ([]Bucket, error)
	// Bucket returns the bucket id, or ErrBucketNotFound.
	Bucket(ctx context.Context, id string) (Bucket, error)
	// CreateBucket adds b, or refuses with ErrBucketExists.
	CreateBucket(ctx context.Context, b Bucket) error
	// UpdateBucket sets the public flag, size limit and allowed types of
	// the bucket b.ID (and its UpdatedAt), or refuses with
	// ErrBucketNotFound.
	UpdateBucket(ctx context.Context, b Bucket) error
	// DeleteBucket removes an empty bucket: ErrBucketNotEmpty while it
	// holds an object, ErrBucketNotFound when there is none.
	DeleteBucket(ctx context.Context, id string) error
	// EmptyBucket removes every object of the bucket and returns them (their
	// blobs are the caller's to delete); ErrBucketNotFound when there is none.
	EmptyBucket(ctx context.Context, id string) ([]Object, error)

	// PutObject stores o (its bucket must exist: ErrBucketNotFound). With
	// upsert it replaces an object of the same name and returns it (its
	// blob is the caller's to delete), keeping its ID and CreatedAt;
	// without, an existing one is ErrObjectExists.
	PutObject(ctx context.Context, o Object, upsert bool) (replaced *Object, err error)
	// Object returns the object name of bucket, or ErrObjectNotFound.
	Object(ctx context.Context, bucket, name string) (Object, error)
	// ListObjects returns the entries of the folder q.Prefix of bucket.
	ListObjects(ctx context.Context, bucket string, q ListQuery) ([]Entry, error)
	// MoveObject renames an object, possibly into another bucket:
	// ErrObjectNotFound, ErrBucketNotFound (the destination), or
	// ErrObjectExists when the destination name is taken.
	MoveObject(ctx context.Context, fromBucket, from, toBucket, to string, at time.Time) error
	// RemoveObjects removes the named objects of bucket and returns those
	// there were (their blobs are the caller's to delete).
	RemoveObjects(ctx context.Context, bucket string, names []string) ([]Object, error)
	// CountDownloads adds counts to the objects' Downloads, in one
	// transaction; names no longer there are skipped.
	CountDownloads(ctx context.Context, counts map[ObjectName]int64) error
}
