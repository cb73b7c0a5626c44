-- Certificates and account keys of the ACME client (--domain), kept in the
-- store so that every instance on one PostgreSQL shares them. Keys are the
-- names autocert gives its cache entries.

CREATE TABLE acme_cache (
    key        TEXT PRIMARY KEY,
    data       BLOB NOT NULL,
    updated_at TEXT NOT NULL
) STRICT;
