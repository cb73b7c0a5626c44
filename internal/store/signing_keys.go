package store

import (
	"context"
	"database/sql"
	"studio/internal/staff"
)

// The keys that sign access tokens (package auth).

// EnsureSigningKey implements staff.Store. Servers starting at once against
// one PostgreSQL take turns, so only the first one's candidate is kept.
func (s *DB) EnsureSigningKey(ctx context.Context, candidate staff.SigningKey) ([]staff.SigningKey, error) {
	var keys signingKeys
	err := s.write(ctx, "ensure signing key", func(ctx context.Context, tx *sql.Tx) error {
		if s.d.lockMigrations != "" {
			if _, err := tx.ExecContext(ctx, s.d.lockMigrations); err != nil {
				return err
			}
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM auth_signing_keys`).Scan(&n); err != nil {
			return err
		}
		if n == 0 && candidate.KID != "" { // a zero candidate: read the keys, add none
			if err := s.insertSigningKey(ctx, tx, candidate); err != nil {
				return err
			}
		}
		return s.txQuery(ctx, tx, signingKeysQuery, nil, keys.scan(s))
	})
	return keys, err
}

// AddSigningKey stores a new signing key; being the newest, it signs from
// the next time the servers read the keys.
func (s *DB) AddSigningKey(ctx context.Context, k staff.SigningKey) error {
	return s.write(ctx, "add signing key", func(ctx context.Context, tx *sql.Tx) error { return s.insertSigningKey(ctx, tx, k) })
}

func (s *DB) insertSigningKey(ctx context.Context, tx *sql.Tx, k staff.SigningKey) error {
	_, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO auth_signing_keys (kid, algorithm, private_key, created_at)
		VALUES (?, ?, ?, ?)`), k.KID, k.Algorithm, k.PrivateKey, s.d.timeArg(k.CreatedAt))
	return err
}

// ListSigningKeys returns every signing key, newest first.
func (s *DB) ListSigningKeys(ctx context.Context) ([]staff.SigningKey, error) {
	var keys signingKeys
	err := s.query(ctx, "list signing keys", signingKeysQuery, nil, keys.scan(s))
	return keys, err
}

// signingKeysQuery selects every signing key, newest first.
const signingKeysQuery = `SELECT kid, algorithm, private_key, created_at FROM auth_signing_keys ORDER BY created_at DESC, kid`

// signingKeys gathers the rows of signingKeysQuery.
type signingKeys []staff.SigningKey

func (keys *signingKeys) scan(s *DB) func(*sql.Rows) error {
	return func(rows *sql.Rows) error {
		var k staff.SigningKey
		if err := rows.Scan(&k.KID, &k.Algorithm, &k.PrivateKey, s.d.timeDest(&k.CreatedAt)); err != nil {
			return err
		}
		*keys = append(*keys, k)
		return nil
	}
}

// ReplaceSigningKey implements staff.SealingStore: it stores next as kid's
// private key if it is still prev.
func (s *DB) ReplaceSigningKey(ctx context.Context, kid string, prev, next []byte) (bool, error) {
	var n int64
	err := s.write(ctx, "replace signing key", func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE auth_signing_keys SET private_key = ? WHERE kid = ? AND private_key = ?`), next, kid, prev)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return n == 1, err
}

// DeleteSigningKey removes a retired signing key from the JWKS.
func (s *DB) DeleteSigningKey(ctx context.Context, kid string) error {
	return s.write(ctx, "delete signing key", func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM auth_signing_keys WHERE kid = ?`), kid)
		return err
	})
}
