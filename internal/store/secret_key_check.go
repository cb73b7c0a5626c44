package store

import (
	"context"
	"database/sql"
	"slices"
	"studio/internal/secretkey"
	"time"
)

// Which secret key the store's secrets are sealed with (package auth,
// keycheck.go): a value sealed with it, kept in secret_key_check, and the
// key ids the sealed values name.

// SecretKeyCheck implements staff.KeyCheckStore.
func (s *DB) SecretKeyCheck(ctx context.Context) ([]byte, error) {
	var sealed []byte
	err := s.query(ctx, "read secret key check", `SELECT sealed FROM secret_key_check WHERE id = 1`, nil,
		func(rows *sql.Rows) error {
			var v string
			err := rows.Scan(&v)
			sealed = []byte(v)
			return err
		})
	return sealed, err
}

// PutSecretKeyCheck implements staff.KeyCheckStore.
func (s *DB) PutSecretKeyCheck(ctx context.Context, sealed []byte, replace bool) ([]byte, error) {
	var stored string
	err := s.write(ctx, "write secret key check", func(ctx context.Context, tx *sql.Tx) error {
		if replace {
			if _, err := tx.ExecContext(ctx, `DELETE FROM secret_key_check`); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO secret_key_check (id, sealed, created_at) VALUES (1, ?, ?)
			ON CONFLICT (id) DO NOTHING`), string(sealed), s.d.timeArg(time.Now())); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT sealed FROM secret_key_check WHERE id = 1`).Scan(&stored)
	})
	return []byte(stored), err
}

// sealedColumns are the values the store keeps sealed with the secret key
// (the OIDC client secrets, inside a JSON document, are left out).
var sealedColumns = []string{
	`SELECT private_key FROM auth_signing_keys`,
	`SELECT private_key FROM auth_saml_keys`,
	`SELECT data FROM acme_cache`,
	`SELECT secret FROM auth_mfa_factors`,
	`SELECT sealed_body FROM outbox WHERE sent_at IS NULL AND sealed_body IS NOT NULL`,
}

// SealedKeyIDs implements staff.KeyCheckStore.
func (s *DB) SealedKeyIDs(ctx context.Context) ([]string, error) {
	var ids []string
	for _, q := range sealedColumns {
		err := s.query(ctx, "read sealed values", q, nil, func(rows *sql.Rows) error {
			var v []byte
			if err := rows.Scan(&v); err != nil {
				return err
			}
			if id, ok := secretkey.SealedKeyID(v); ok && !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return ids, nil
}
