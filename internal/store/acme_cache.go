package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// ErrCacheMiss is returned by CacheGet for a key the cache does not hold.
var ErrCacheMiss = errors.New("acme cache: miss")

// CacheGet returns the ACME cache entry of key.
func (s *DB) CacheGet(ctx context.Context, key string) ([]byte, error) {
	var data []byte
	found := false
	err := s.query(ctx, "get acme cache entry", `SELECT data FROM acme_cache WHERE key = ?`, []any{key},
		func(rows *sql.Rows) error { found = true; return rows.Scan(&data) })
	if err == nil && !found {
		return nil, ErrCacheMiss
	}
	return data, err
}

// CachePut stores data as the ACME cache entry of key.
func (s *DB) CachePut(ctx context.Context, key string, data []byte) error {
	return s.write(ctx, "put acme cache entry", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO acme_cache (key, data, updated_at) VALUES (?, ?, ?)
			ON CONFLICT (key) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at`),
			key, data, s.d.timeArg(time.Now()))
		return err
	})
}

// CacheDelete removes the ACME cache entry of key, if any.
func (s *DB) CacheDelete(ctx context.Context, key string) error {
	return s.write(ctx, "delete acme cache entry", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM acme_cache WHERE key = ?`), key)
		return err
	})
}
