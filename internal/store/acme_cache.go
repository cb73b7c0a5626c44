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
	return s.write(ctx, "put acme cache entry", func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO acme_cache (key, data, updated_at) VALUES (?, ?, ?)
			ON CONFLICT (key) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at`),
			key, data, s.d.timeArg(time.Now()))
		return err
	})
}

// CacheKeys returns the keys of every ACME cache entry.
func (s *DB) CacheKeys(ctx context.Context) ([]string, error) {
	var keys []string
	err := s.query(ctx, "list acme cache entries", `SELECT key FROM acme_cache ORDER BY key`, nil,
		func(rows *sql.Rows) error {
			var k string
			err := rows.Scan(&k)
			keys = append(keys, k)
			return err
		})
	return keys, err
}

// CacheReplace stores next as the ACME cache entry of key if it is still
// prev, and reports whether it did.
func (s *DB) CacheReplace(ctx context.Context, key string, prev, next []byte) (bool, error) {
	var n int64
	err := s.write(ctx, "replace acme cache entry", func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE acme_cache SET data = ? WHERE key = ? AND data = ?`), next, key, prev)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return n == 1, err
}

// CacheDelete removes the ACME cache entry of key, if any.
func (s *DB) CacheDelete(ctx context.Context, key string) error {
	return s.write(ctx, "delete acme cache entry", func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM acme_cache WHERE key = ?`), key)
		return err
	})
}
