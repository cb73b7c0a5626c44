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

// Sessions of the staff sign-in (package auth) and their rotating refresh
// tokens.

// StartSession implements staff.Store.
func (s *DB) StartSession(ctx context.Context, sess staff.Session, refreshHash string, audit staff.AuditEntry) error {
	return s.write(ctx, "start session", func(ctx context.Context, tx *sql.Tx) error {
		return s.startSession(ctx, tx, sess, refreshHash, audit)
	})
}

// startSession is StartSession in tx.
func (s *DB) startSession(ctx context.Context, tx *sql.Tx, sess staff.Session, refreshHash string, audit staff.AuditEntry) error {
	amr, err := json.Marshal(sess.AMR)
	if err != nil {
		return fmt.Errorf("start session: %w", err)
	}
	res, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE auth_users SET last_sign_in_at = ?, updated_at = ?,
		email_confirmed_at = COALESCE(email_confirmed_at, ?) WHERE id = ?`),
		s.d.timeArg(sess.CreatedAt), s.d.timeArg(sess.CreatedAt), s.d.timeArg(sess.CreatedAt), sess.UserID)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return errors.Join(err, staff.ErrNotFound)
	}
	if _, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO auth_sessions (id, user_id, created_at, refreshed_at, aal, amr)
		VALUES (?, ?, ?, ?, ?, ?)`), sess.ID, sess.UserID, s.d.timeArg(sess.CreatedAt), s.d.timeArg(sess.RefreshedAt),
		sess.AAL, string(amr)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO auth_refresh_tokens (token_hash, session_id, created_at)
		VALUES (?, ?, ?)`), refreshHash, sess.ID, s.d.timeArg(sess.CreatedAt)); err != nil {
		return err
	}
	return s.audit(ctx, tx, audit)
}

const sessionColumns = `id, user_id, created_at, refreshed_at, aal, amr, factor_id`

func (s *DB) scanSession(row scanner, more ...any) (staff.Session, error) {
	var sess staff.Session
	var amr string
	dest := append([]any{&sess.ID, &sess.UserID, s.d.timeDest(&sess.CreatedAt), s.d.timeDest(&sess.RefreshedAt), &sess.AAL, &amr, &sess.FactorID}, more...)
	if err := row.Scan(dest...); err != nil {
		return sess, err
	}
	if err := json.Unmarshal([]byte(amr), &sess.AMR); err != nil {
		return sess, fmt.Errorf("session %s amr: %w", sess.ID, err)
	}
	return sess, nil
}

// FindSession returns the session of id; staff.ErrSessionNotFound for one
// that ended.
func (s *DB) FindSession(ctx context.Context, id string) (staff.Session, error) {
	var sess staff.Session
	err := s.guard(ctx, "find session", false, true, func(ctx context.Context) error {
		var err error
		sess, err = s.scanSession(s.db.QueryRowContext(ctx, s.d.rebind(`SELECT `+sessionColumns+` FROM auth_sessions WHERE id = ?`), id))
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return staff.ErrSessionNotFound
		case err != nil:
			return s.fail("find session", err)
		}
		return nil
	})
	return sess, err
}

// sessionUserColumns select a session (s), its user (u), the user's factors
// (f) and federated identities (i), with sessionUserJoin and in the order
// of sessionUserOrder: one row per factor and one per identity, their
// other columns NULL, or one row of each kind with NULL factor or identity
// columns when the user has none. The two-row part (k) keeps the factors
// and identities apart, rather than one row for each pair.
const (
	sessionUserColumns = `s.id, s.user_id, s.created_at, s.refreshed_at, s.aal, s.amr, s.factor_id,
		u.email, u.user_metadata, u.created_at, u.updated_at, u.email_confirmed_at, u.last_sign_in_at, u.phone,
		f.id, f.friendly_name, f.factor_type, f.status, f.created_at, f.updated_at, f.last_challenged_at, f.phone,
		i.id, i.provider, i.subject, i.email, i.identity_data, i.created_at, i.updated_at, i.last_sign_in_at`
	sessionUserJoin = `JOIN auth_users u ON u.id = s.user_id
		CROSS JOIN (SELECT 1 AS part UNION ALL SELECT 2) k
		LEFT JOIN auth_mfa_factors f ON k.part = 1 AND f.user_id = u.id
		LEFT JOIN auth_identities i ON k.part = 2 AND i.user_id = u.id`
	sessionUserOrder = `ORDER BY k.part, f.created_at, f.id, i.created_at, i.id`
)

// sessionUser gathers the rows of a sessionUserColumns query.
type sessionUser struct {
	found bool
	sess  staff.Session
	user  staff.User
}

// scan reads one row; more are the destinations of the columns that follow
// sessionUserColumns.
func (su *sessionUser) scan(s *DB, rows *sql.Rows, more ...any) error {
	var meta string
	var f struct {
		id, name, typ, status *string
		phone                 *string
		created, updated      *time.Time
		challenged            *time.Time
	}
	var i struct {
		id, provider, subject, email, data *string
		created, updated                   *time.Time
		signedIn                           *time.Time
	}
	u := &su.user
	row, err := s.scanSession(rows, append([]any{&u.Email, &meta, s.d.timeDest(&u.CreatedAt), s.d.timeDest(&u.UpdatedAt),
		nullTimeDest(&u.EmailConfirmedAt), nullTimeDest(&u.LastSignInAt), &u.Phone,
		&f.id, &f.name, &f.typ, &f.status, nullTimeDest(&f.created), nullTimeDest(&f.updated), nullTimeDest(&f.challenged), &f.phone,
		&i.id, &i.provider, &i.subject, &i.email, &i.data, nullTimeDest(&i.created), nullTimeDest(&i.updated), nullTimeDest(&i.signedIn)},
		more...)...)
	if err != nil {
		return err
	}
	if !su.found {
		su.found, su.sess, u.ID = true, row, row.UserID
		if u.UserMetadata, err = decodeMetadata(u.ID, meta); err != nil {
			return err
		}
	}
	if f.id != nil {
		u.Factors = append(u.Factors, staff.Factor{ID: *f.id, UserID: u.ID, FriendlyName: *f.name, FactorType: *f.typ,
			Status: *f.status, CreatedAt: *f.created, UpdatedAt: *f.updated, LastChallengedAt: f.challenged, Phone: *f.phone})
	}
	if i.id != nil {
		data, err := decodeMetadata(u.ID, *i.data)
		if err != nil {
			return err
		}
		u.Identities = append(u.Identities, staff.Identity{ID: *i.id, UserID: u.ID, Provider: *i.provider, Subject: *i.subject,
			Email: *i.email, Data: data, CreatedAt: *i.created, UpdatedAt: *i.updated, LastSignInAt: i.signedIn})
	}
	return nil
}

// FindSessionUser implements staff.Store, in one prepared query: every
// request with an access token makes it.
func (s *DB) FindSessionUser(ctx context.Context, id string) (staff.Session, staff.User, error) {
	var su sessionUser
	err := s.queryPrepared(ctx, "find session", `SELECT `+sessionUserColumns+` FROM auth_sessions s `+sessionUserJoin+`
		WHERE s.id = ? `+sessionUserOrder, []any{id}, func(rows *sql.Rows) error { return su.scan(s, rows) })
	switch {
	case err != nil:
		return su.sess, su.user, err
	case !su.found:
		return su.sess, su.user, staff.ErrSessionNotFound
	}
	return su.sess, su.user, nil
}

// The statements of RefreshSession.
const (
	refreshFind = `SELECT ` + sessionUserColumns + `, t.id, t.revoked_at
		FROM auth_refresh_tokens t JOIN auth_sessions s ON s.id = t.session_id ` + sessionUserJoin + `
		WHERE t.token_hash = ? ` + sessionUserOrder
	refreshRevoke = `UPDATE auth_refresh_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL`
	refreshInsert = `INSERT INTO auth_refresh_tokens (token_hash, session_id, parent_id, created_at) VALUES (?, ?, ?, ?)`
	refreshTouch  = `UPDATE auth_sessions SET refreshed_at = ? WHERE id = ?`
)

// RefreshSession implements staff.Store. Two requests that rotate the same
// token at once are told apart by a compare-and-set on revoked_at: the
// loser sees a token revoked just now, within the grace window, and gets a
// child of its own.
func (s *DB) RefreshSession(ctx context.Context, oldHash, newHash string, now time.Time, grace time.Duration,
	valid func(staff.Session) error) (staff.Session, staff.User, error) {
	var sess staff.Session
	var u staff.User
	var outcome error
	s.keepPrepared(ctx, refreshFind, refreshRevoke, refreshInsert, refreshTouch)
	err := s.write(ctx, "refresh session", func(ctx context.Context, tx *sql.Tx) error {
		var id int64
		var revoked *time.Time
		var su sessionUser
		err := s.txQuery(ctx, tx, refreshFind, []any{oldHash},
			func(rows *sql.Rows) error { return su.scan(s, rows, &id, nullTimeDest(&revoked)) })
		if err != nil {
			return err
		}
		if !su.found { // a session's tokens go with it
			outcome = staff.ErrRefreshTokenNotFound
			return nil
		}
		sess, u = su.sess, su.user
		if outcome = valid(sess); outcome != nil {
			return nil
		}
		if revoked == nil {
			res, err := s.txExec(ctx, tx, refreshRevoke, s.d.timeArg(now), id)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil {
				return err
			} else if n == 0 {
				revoked = &now // rotated by a concurrent request just now
			}
		}
		if revoked != nil && now.Sub(*revoked) > grace {
			// Used again after the grace window: a stolen copy, or a client
			// gone badly wrong. End the whole session.
			if err := s.endSessions(ctx, tx, `id = ?`, sess.ID); err != nil {
				return err
			}
			outcome = staff.ErrRefreshTokenReused
			return s.audit(ctx, tx, staff.AuditEntry{At: now, Action: staff.ActionTokenReused, UserID: sess.UserID, SessionID: sess.ID})
		}
		if _, err := s.txExec(ctx, tx, refreshInsert, newHash, sess.ID, id, s.d.timeArg(now)); err != nil {
			return err
		}
		if _, err := s.txExec(ctx, tx, refreshTouch, s.d.timeArg(now), sess.ID); err != nil {
			return err
		}
		sess.RefreshedAt = now
		return nil
	})
	if err != nil {
		return sess, u, err
	}
	return sess, u, outcome
}

// EndSessions implements staff.Store.
func (s *DB) EndSessions(ctx context.Context, userID, sessionID string, scope staff.LogoutScope, audit staff.AuditEntry) error {
	return s.write(ctx, "end sessions", func(ctx context.Context, tx *sql.Tx) error {
		var err error
		switch scope {
		case staff.ScopeLocal:
			err = s.endSessions(ctx, tx, `id = ? AND user_id = ?`, sessionID, userID)
		case staff.ScopeOthers:
			err = s.endSessions(ctx, tx, `user_id = ? AND id <> ?`, userID, sessionID)
		case staff.ScopeGlobal:
			err = s.endSessions(ctx, tx, `user_id = ?`, userID)
		default:
			err = fmt.Errorf("unknown logout scope %q", scope)
		}
		if err != nil {
			return err
		}
		return s.audit(ctx, tx, audit)
	})
}

// endSessions deletes the sessions that where selects, with their refresh
// tokens. where is one of this file's constants, never request text.
func (s *DB) endSessions(ctx context.Context, tx *sql.Tx, where string, args ...any) error {
	if _, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM auth_refresh_tokens WHERE session_id IN
		(SELECT id FROM auth_sessions WHERE `+where+`)`), args...); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM auth_sessions WHERE `+where), args...)
	return err
}
