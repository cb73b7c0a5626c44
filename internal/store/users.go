package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"studio/internal/staff"
	"time"
)

// Staff (package auth's users): the people who may sign in.

// CreateUser adds a member of staff; staff.ErrExists when the address (or
// the phone number) is already one's.
func (s *DB) CreateUser(ctx context.Context, u staff.User, audit staff.AuditEntry) error {
	var created bool
	err := s.write(ctx, "insert user", func(ctx context.Context, tx *sql.Tx) error {
		var err error
		if created, err = s.insertUser(ctx, tx, u); err != nil || !created {
			return err
		}
		return s.audit(ctx, tx, audit)
	})
	if err == nil && !created {
		return fmt.Errorf("insert user %s: %w", u.Email, staff.ErrExists)
	}
	return err
}

// insertUser adds u in tx; false when the address or the phone number is
// someone's already.
func (s *DB) insertUser(ctx context.Context, tx *sql.Tx, u staff.User) (bool, error) {
	meta, err := json.Marshal(nonNilMap(u.UserMetadata))
	if err != nil {
		return false, err
	}
	res, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO auth_users (id, email, user_metadata, created_at, updated_at, phone)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`),
		u.ID, u.Email, string(meta), s.d.timeArg(u.CreatedAt), s.d.timeArg(u.UpdatedAt), u.Phone)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// ListUsers returns every member of staff, by address.
func (s *DB) ListUsers(ctx context.Context) ([]staff.User, error) {
	var out []staff.User
	err := s.query(ctx, "list users", `SELECT `+userColumns+` FROM auth_users ORDER BY email`, nil,
		func(rows *sql.Rows) error {
			u, err := s.scanUser(rows)
			out = append(out, u)
			return err
		})
	return out, err
}

// RemoveUser removes the member of staff with the address and, with them,
// every session, refresh token and code they had: their access tokens stop
// working at once. staff.ErrNotFound when no one has the address.
func (s *DB) RemoveUser(ctx context.Context, email string, audit staff.AuditEntry) (staff.User, error) {
	var u staff.User
	err := s.write(ctx, "remove user", func(ctx context.Context, tx *sql.Tx) error {
		var err error
		if u, err = s.scanUser(tx.QueryRowContext(ctx, s.d.rebind(`SELECT `+userColumns+` FROM auth_users WHERE email = ?`), email)); err != nil {
			return err
		}
		// Explicit deletes, not only ON DELETE CASCADE: the order of the
		// children is then the same on both engines.
		for _, q := range []string{
			`DELETE FROM auth_refresh_tokens WHERE session_id IN (SELECT id FROM auth_sessions WHERE user_id = ?)`,
			`DELETE FROM auth_sessions WHERE user_id = ?`,
			`DELETE FROM auth_one_time_codes WHERE user_id = ?`,
			`DELETE FROM auth_mfa_challenges WHERE factor_id IN (SELECT id FROM auth_mfa_factors WHERE user_id = ?)`,
			`DELETE FROM auth_mfa_factors WHERE user_id = ?`,
			`DELETE FROM auth_identities WHERE user_id = ?`,
			`DELETE FROM auth_flow_states WHERE link_user_id = ?`,
			`DELETE FROM auth_users WHERE id = ?`,
		} {
			if _, err := tx.ExecContext(ctx, s.d.rebind(q), u.ID); err != nil {
				return err
			}
		}
		audit.UserID = u.ID
		return s.audit(ctx, tx, audit)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return u, fmt.Errorf("remove user %s: %w", email, staff.ErrNotFound)
	}
	return u, err
}

// FindUserByEmail implements staff.Store.
func (s *DB) FindUserByEmail(ctx context.Context, email string) (staff.User, error) {
	return s.findUser(ctx, "find user by e-mail", `email = ?`, email)
}

// FindUserByID implements staff.Store.
func (s *DB) FindUserByID(ctx context.Context, id string) (staff.User, error) {
	return s.findUser(ctx, "find user", `id = ?`, id)
}

const userColumns = `id, email, user_metadata, created_at, updated_at, email_confirmed_at, last_sign_in_at, phone`

// userWhere reads the user that where (a condition of this package, with
// arg) selects, with their factors and identities; sql.ErrNoRows for no one.
func (s *DB) userWhere(ctx context.Context, q queryer, where string, arg any) (staff.User, error) {
	u, err := s.scanUser(q.QueryRowContext(ctx, s.d.rebind(`SELECT `+userColumns+` FROM auth_users WHERE `+where), arg))
	if err == nil {
		u.Factors, err = s.userFactors(ctx, q, u.ID)
	}
	if err == nil {
		u.Identities, err = s.userIdentities(ctx, q, u.ID)
	}
	return u, err
}

func (s *DB) findUser(ctx context.Context, op, where string, arg any) (staff.User, error) {
	var u staff.User
	err := s.guard(ctx, op, false, true, func(ctx context.Context) error {
		var err error
		u, err = s.userWhere(ctx, s.db, where, arg)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return staff.ErrNotFound
		case err != nil:
			return s.fail(op, err)
		}
		return nil
	})
	return u, err
}

func (s *DB) scanUser(row scanner) (staff.User, error) {
	var u staff.User
	var meta string
	err := row.Scan(&u.ID, &u.Email, &meta, s.d.timeDest(&u.CreatedAt), s.d.timeDest(&u.UpdatedAt),
		nullTimeDest(&u.EmailConfirmedAt), nullTimeDest(&u.LastSignInAt), &u.Phone)
	if err != nil {
		return u, err
	}
	u.UserMetadata, err = decodeMetadata(u.ID, meta)
	return u, err
}

// decodeMetadata decodes the user_metadata column of userID: never nil.
func decodeMetadata(userID, meta string) (map[string]any, error) {
	var m map[string]any
	if err := json.Unmarshal([]byte(meta), &m); err != nil {
		return nil, fmt.Errorf("user %s metadata: %w", userID, err)
	}
	return nonNilMap(m), nil
}

func nonNilMap(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// UpdateUserMetadata implements staff.Store.
func (s *DB) UpdateUserMetadata(ctx context.Context, userID string, meta map[string]any, now time.Time) error {
	b, err := json.Marshal(nonNilMap(meta))
	if err != nil {
		return fmt.Errorf("update user metadata: %w", err)
	}
	var found bool
	err = s.write(ctx, "update user metadata", func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE auth_users SET user_metadata = ?, updated_at = ? WHERE id = ?`),
			string(b), s.d.timeArg(now), userID)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		found = n == 1
		return err
	})
	if err == nil && !found {
		return staff.ErrNotFound
	}
	return err
}

// changeEmail makes newEmail the user's address; false when it is someone
// else's.
func (s *DB) changeEmail(ctx context.Context, tx *sql.Tx, userID, newEmail string, now time.Time) (bool, error) {
	var n int
	if err := tx.QueryRowContext(ctx, s.d.rebind(`SELECT COUNT(*) FROM auth_users WHERE email = ? AND id <> ?`), newEmail, userID).Scan(&n); err != nil {
		return false, err
	}
	if n > 0 {
		return false, nil
	}
	_, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE auth_users SET email = ?, updated_at = ? WHERE id = ?`),
		newEmail, s.d.timeArg(now), userID)
	return err == nil, err
}
