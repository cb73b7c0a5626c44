package store

import (
	"context"
	"database/sql"
)

// WriteSQL runs statements, in order, in one write of the store (write), for
// the tests of package store_test that provoke the engines' errors.
func (s *DB) WriteSQL(ctx context.Context, statements ...string) error {
	return s.write(ctx, "write sql", func(ctx context.Context, tx *sql.Tx) error {
		for _, q := range statements {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return err
			}
		}
		return nil
	})
}
