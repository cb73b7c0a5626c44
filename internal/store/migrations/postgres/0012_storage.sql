-- storage/v1: buckets and the metadata of their objects. The bytes live in
-- the storage backend (a directory or S3) under blob_key, a key the service
-- chose; a replacement points the row at a new key in one commit.
-- Safe with the previous release still running: new tables it never names.
CREATE TABLE storage_buckets (
    id                 TEXT PRIMARY KEY,
    public             BOOLEAN NOT NULL DEFAULT FALSE,
    file_size_limit    BIGINT,           -- bytes; NULL: no limit of its own
    allowed_mime_types TEXT,             -- JSON array of type/subtype or type/*; NULL: any
    owner              TEXT NOT NULL DEFAULT '',
    created_at         TIMESTAMPTZ NOT NULL,
    updated_at         TIMESTAMPTZ NOT NULL
);

CREATE TABLE storage_objects (
    id               TEXT PRIMARY KEY,
    bucket_id        TEXT NOT NULL REFERENCES storage_buckets (id),
    -- the path as given, UTF-8; sorted by bytes as on SQLite
    name             TEXT COLLATE "C" NOT NULL,
    blob_key         TEXT NOT NULL,
    size             BIGINT NOT NULL,
    content_type     TEXT NOT NULL,
    cache_control    TEXT NOT NULL,
    etag             TEXT NOT NULL,
    user_metadata    TEXT,              -- JSON object, or NULL
    owner            TEXT NOT NULL DEFAULT '',
    created_at       TIMESTAMPTZ NOT NULL,
    updated_at       TIMESTAMPTZ NOT NULL,
    last_accessed_at TIMESTAMPTZ NOT NULL,
    downloads        BIGINT NOT NULL DEFAULT 0 -- public downloads answered 200 (counted in batches)
);

-- One object per name in a bucket; listing a folder walks this index.
CREATE UNIQUE INDEX storage_objects_name ON storage_objects (bucket_id, name);
