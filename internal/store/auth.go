package store

import (
	"context"
	"crypto/subtle"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"studio/internal/auth"
	"studio/internal/notify"
)

// The staff sign-in service's state (package auth): users, sessions,
// refresh tokens, one-time codes, signing keys and the audit log.

// CreateUser adds a member of staff; auth.ErrExists when the address is
// already one.
func (s *DB) CreateUser(ctx context.Context, u auth.User, audit auth.AuditEntry) error {
	meta, err := json.Marshal(nonNilMap(u.UserMetadata))
	if err != nil {
		return fmt.Errorf("insert user: %w", err)
	}
	var created bool
	err = s.write(ctx, "insert user", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO auth_users (id, email, user_metadata, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`),
			u.ID, u.Email, string(meta), s.d.timeArg(u.CreatedAt), s.d.timeArg(u.UpdatedAt))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return err
		}
		created = true
		return s.audit(ctx, tx, audit)
	})
	if err == nil && !created {
		return fmt.Errorf("insert user %s: %w", u.Email, auth.ErrExists)
	}
	return err
}

// ListUsers returns every member of staff, by address.
func (s *DB) ListUsers(ctx context.Context) ([]auth.User, error) {
	var out []auth.User
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
// working at once. auth.ErrNotFound when no one has the address.
func (s *DB) RemoveUser(ctx context.Context, email string, audit auth.AuditEntry) (auth.User, error) {
	var u auth.User
	err := s.write(ctx, "remove user", func(tx *sql.Tx) error {
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
		return u, fmt.Errorf("remove user %s: %w", email, auth.ErrNotFound)
	}
	return u, err
}

// FindUserByEmail implements auth.Store.
func (s *DB) FindUserByEmail(ctx context.Context, email string) (auth.User, error) {
	return s.findUser(ctx, "find user by e-mail", `email = ?`, email)
}

// FindUserByID implements auth.Store.
func (s *DB) FindUserByID(ctx context.Context, id string) (auth.User, error) {
	return s.findUser(ctx, "find user", `id = ?`, id)
}

const userColumns = `id, email, user_metadata, created_at, updated_at, email_confirmed_at, last_sign_in_at`

func (s *DB) findUser(ctx context.Context, op, where string, arg any) (auth.User, error) {
	if err := s.ready(ctx); err != nil {
		return auth.User{}, fmt.Errorf("%s: %w", op, err)
	}
	u, err := s.scanUser(s.db.QueryRowContext(ctx, s.d.rebind(`SELECT `+userColumns+` FROM auth_users WHERE `+where), arg))
	if err == nil {
		u.Factors, err = s.userFactors(ctx, s.db, u.ID)
	}
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return u, auth.ErrNotFound
	case err != nil:
		return u, fmt.Errorf("%s: %w: %w", op, ErrUnavailable, err)
	}
	return u, nil
}

type scanner interface{ Scan(dest ...any) error }

func (s *DB) scanUser(row scanner) (auth.User, error) {
	var u auth.User
	var meta string
	err := row.Scan(&u.ID, &u.Email, &meta, s.d.timeDest(&u.CreatedAt), s.d.timeDest(&u.UpdatedAt),
		nullTimeDest(&u.EmailConfirmedAt), nullTimeDest(&u.LastSignInAt))
	if err != nil {
		return u, err
	}
	if err := json.Unmarshal([]byte(meta), &u.UserMetadata); err != nil {
		return u, fmt.Errorf("user %s metadata: %w", u.ID, err)
	}
	u.UserMetadata = nonNilMap(u.UserMetadata)
	return u, nil
}

func nonNilMap(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// UpdateUserMetadata implements auth.Store.
func (s *DB) UpdateUserMetadata(ctx context.Context, userID string, meta map[string]any, now time.Time) error {
	b, err := json.Marshal(nonNilMap(meta))
	if err != nil {
		return fmt.Errorf("update user metadata: %w", err)
	}
	var found bool
	err = s.write(ctx, "update user metadata", func(tx *sql.Tx) error {
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
		return auth.ErrNotFound
	}
	return err
}

// ClaimEmailSend implements auth.Store. Rows older than a day are pruned
// on the way, so the table holds only recent addresses.
func (s *DB) ClaimEmailSend(ctx context.Context, addressHash string, now time.Time, interval time.Duration,
	code *auth.Code, mail *notify.Email, audit auth.AuditEntry) (time.Duration, error) {
	var retry time.Duration
	err := s.write(ctx, "claim e-mail send", func(tx *sql.Tx) error {
		var last time.Time
		err := tx.QueryRowContext(ctx, s.d.rebind(`SELECT last_sent_at FROM auth_email_sends WHERE address_hash = ?`), addressHash).
			Scan(s.d.timeDest(&last))
		switch {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return err
		case now.Sub(last) < interval:
			retry = interval - now.Sub(last)
			return nil
		}
		if _, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM auth_email_sends WHERE last_sent_at < ?`),
			s.d.timeArg(now.Add(-24*time.Hour))); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO auth_email_sends (address_hash, last_sent_at) VALUES (?, ?)
			ON CONFLICT (address_hash) DO UPDATE SET last_sent_at = excluded.last_sent_at`),
			addressHash, s.d.timeArg(now)); err != nil {
			return err
		}
		if code == nil {
			return nil
		}
		return s.issueCode(ctx, tx, *code, mail, audit)
	})
	if err != nil {
		return 0, err
	}
	if retry > 0 {
		return retry, auth.ErrEmailSendRateExceeded
	}
	return 0, nil
}

// QueueCode implements auth.Store.
func (s *DB) QueueCode(ctx context.Context, c auth.Code, mail *notify.Email, audit auth.AuditEntry) error {
	return s.write(ctx, "queue code", func(tx *sql.Tx) error { return s.issueCode(ctx, tx, c, mail, audit) })
}

// CreateCode implements auth.Store.
func (s *DB) CreateCode(ctx context.Context, c auth.Code, audit auth.AuditEntry) error {
	return s.write(ctx, "create code", func(tx *sql.Tx) error { return s.issueCode(ctx, tx, c, nil, audit) })
}

// issueCode replaces the user's live code of c's purpose with c, queues
// mail when not nil, and logs audit.
func (s *DB) issueCode(ctx context.Context, tx *sql.Tx, c auth.Code, mail *notify.Email, audit auth.AuditEntry) error {
	if _, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM auth_one_time_codes WHERE user_id = ? AND purpose = ?`),
		c.UserID, c.Purpose); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO auth_one_time_codes
		(user_id, purpose, code_hash, link_hash, created_at, expires_at, code_challenge, code_challenge_method, new_email)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		c.UserID, c.Purpose, c.CodeHash, c.LinkHash, s.d.timeArg(c.CreatedAt), s.d.timeArg(c.ExpiresAt),
		c.CodeChallenge, c.CodeChallengeMethod, c.NewEmail); err != nil {
		return err
	}
	if mail != nil {
		if err := s.queueMail(ctx, tx, *mail, c.CreatedAt); err != nil {
			return err
		}
	}
	return s.audit(ctx, tx, audit)
}

// ConsumeCode implements auth.Store. Each try is one conditional UPDATE
// (consumeCode), so concurrent tries never compare more than maxTries.
func (s *DB) ConsumeCode(ctx context.Context, userID, purpose, codeHash string, now time.Time, maxTries int, failure auth.AuditEntry) error {
	match := func(_, stored string) bool { return subtle.ConstantTimeCompare([]byte(stored), []byte(codeHash)) == 1 }
	_, err := s.consumeCode(ctx, "consume code", `user_id = ? AND purpose = ?`, []any{userID, purpose},
		now, maxTries, match, failure, nil)
	return err
}

// ConsumeCodeByEmail implements auth.Store.
func (s *DB) ConsumeCodeByEmail(ctx context.Context, email, purpose string, now time.Time, maxTries int,
	match func(userID, codeHash string) bool, failure auth.AuditEntry) (string, error) {
	return s.consumeCode(ctx, "consume code", `user_id = (SELECT id FROM auth_users WHERE email = ?) AND purpose = ?`,
		[]any{email, purpose}, now, maxTries, match, failure, nil)
}

// ConsumeEmailChange implements auth.Store.
func (s *DB) ConsumeEmailChange(ctx context.Context, email string, now time.Time, maxTries int,
	match func(userID, codeHash string) bool, failure auth.AuditEntry) (string, error) {
	var exists bool
	userID, err := s.consumeCode(ctx, "consume e-mail change code", `id = (SELECT c.id FROM auth_one_time_codes c
			WHERE c.purpose = ? AND c.used_at IS NULL AND c.expires_at > ? AND c.tries < ?
			AND (c.new_email = ? OR c.user_id IN (SELECT id FROM auth_users WHERE email = ?))
			ORDER BY c.id DESC LIMIT 1)`,
		[]any{auth.PurposeEmailChange, s.d.timeArg(now), maxTries, email, email}, now, maxTries, match, failure,
		func(tx *sql.Tx, userID, newEmail string) error {
			changed, err := s.changeEmail(ctx, tx, userID, newEmail, now)
			exists = !changed
			return err
		})
	if err == nil && exists {
		return userID, auth.ErrExists
	}
	return userID, err
}

// consumeCode counts a try on the live code that owner (a condition with
// args) selects and uses it when match(userID, its hash) holds, then calls
// used (when not nil) in the same transaction; otherwise it logs failure
// and returns auth.ErrCodeInvalid. The try is one UPDATE that touches one
// row or none, followed by the same audit insert whether or not there was
// a code, so the time taken does not tell whether an address is staff's.
// A code tried maxTries times is dead, its link too (ConsumeLink).
func (s *DB) consumeCode(ctx context.Context, op, owner string, args []any, now time.Time, maxTries int,
	match func(userID, codeHash string) bool, failure auth.AuditEntry,
	used func(tx *sql.Tx, userID, newEmail string) error) (string, error) {
	var userID string
	var ok bool
	err := s.write(ctx, op, func(tx *sql.Tx) error {
		ok = false
		var id int64
		var stored, newEmail string
		err := tx.QueryRowContext(ctx, s.d.rebind(`UPDATE auth_one_time_codes SET tries = tries + 1
			WHERE `+owner+` AND used_at IS NULL AND expires_at > ? AND tries < ?
			RETURNING id, user_id, code_hash, new_email`), append(args, s.d.timeArg(now), maxTries)...).
			Scan(&id, &userID, &stored, &newEmail)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			userID = ""
		case err != nil:
			return err
		case match(userID, stored):
			if ok, err = s.useCode(ctx, tx, id, now); err != nil || !ok {
				return err
			}
			if used != nil {
				return used(tx, userID, newEmail)
			}
			return nil
		}
		failure.UserID = userID
		return s.audit(ctx, tx, failure)
	})
	if err == nil && !ok {
		return "", auth.ErrCodeInvalid
	}
	return userID, err
}

// ConsumeLink implements auth.Store. The hash is looked up by index: it is
// the hash of 256 random bits, so the lookup's timing tells nothing useful.
func (s *DB) ConsumeLink(ctx context.Context, linkHash, purpose string, now time.Time, maxTries int) (userID string, err error) {
	var outcome error
	err = s.write(ctx, "consume link", func(tx *sql.Tx) error {
		outcome = auth.ErrCodeInvalid
		var id int64
		var newEmail, challenge string
		err := tx.QueryRowContext(ctx, s.d.rebind(`SELECT id, user_id, new_email, code_challenge FROM auth_one_time_codes
			WHERE link_hash = ? AND purpose = ? AND used_at IS NULL AND expires_at > ? AND tries < ?`),
			linkHash, purpose, s.d.timeArg(now), maxTries).Scan(&id, &userID, &newEmail, &challenge)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return nil
		case err != nil:
			return err
		case challenge != "":
			outcome = auth.ErrPKCERequired // left for its verifier
			return nil
		}
		if ok, err := s.useCode(ctx, tx, id, now); err != nil || !ok {
			return err
		}
		if purpose == auth.PurposeEmailChange {
			if ok, err := s.changeEmail(ctx, tx, userID, newEmail, now); err != nil || !ok {
				return err
			}
		}
		outcome = nil
		return nil
	})
	if err == nil && outcome != nil {
		return "", outcome
	}
	return userID, err
}

// useCode marks the code used unless a concurrent request did.
func (s *DB) useCode(ctx context.Context, tx *sql.Tx, id int64, now time.Time) (bool, error) {
	res, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE auth_one_time_codes SET used_at = ? WHERE id = ? AND used_at IS NULL`),
		s.d.timeArg(now), id)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
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

// ConsumePKCE implements auth.Store.
func (s *DB) ConsumePKCE(ctx context.Context, linkHash string, now time.Time, maxTries int,
	verifier func(challenge, method string) bool) (string, error) {
	var userID string
	var outcome error
	err := s.write(ctx, "consume PKCE code", func(tx *sql.Tx) error {
		var id int64
		var challenge, method string
		var expires time.Time
		err := tx.QueryRowContext(ctx, s.d.rebind(`SELECT id, user_id, code_challenge, code_challenge_method, expires_at
			FROM auth_one_time_codes WHERE link_hash = ? AND used_at IS NULL AND code_challenge <> '' AND tries < ?`+s.d.forUpdate),
			linkHash, maxTries).Scan(&id, &userID, &challenge, &method, s.d.timeDest(&expires))
		switch {
		case errors.Is(err, sql.ErrNoRows):
			outcome = auth.ErrNotFound
			return nil
		case err != nil:
			return err
		case !now.Before(expires):
			outcome = auth.ErrFlowStateExpired
			return nil
		case !verifier(challenge, method):
			outcome = auth.ErrBadCodeVerifier
			_, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE auth_one_time_codes SET tries = tries + 1,
				used_at = CASE WHEN tries + 1 >= ? THEN ? ELSE used_at END WHERE id = ?`), maxTries, s.d.timeArg(now), id)
			return err
		}
		res, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE auth_one_time_codes SET used_at = ? WHERE id = ? AND used_at IS NULL`),
			s.d.timeArg(now), id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			outcome = auth.ErrNotFound // used by a concurrent request
			return err
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	if outcome != nil {
		return "", outcome
	}
	return userID, nil
}

// StartSession implements auth.Store.
func (s *DB) StartSession(ctx context.Context, sess auth.Session, refreshHash string, audit auth.AuditEntry) error {
	amr, err := json.Marshal(sess.AMR)
	if err != nil {
		return fmt.Errorf("start session: %w", err)
	}
	return s.write(ctx, "start session", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE auth_users SET last_sign_in_at = ?, updated_at = ?,
			email_confirmed_at = COALESCE(email_confirmed_at, ?) WHERE id = ?`),
			s.d.timeArg(sess.CreatedAt), s.d.timeArg(sess.CreatedAt), s.d.timeArg(sess.CreatedAt), sess.UserID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return errors.Join(err, auth.ErrNotFound)
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
	})
}

const sessionColumns = `id, user_id, created_at, refreshed_at, aal, amr, factor_id`

func (s *DB) scanSession(row scanner, more ...any) (auth.Session, error) {
	var sess auth.Session
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

// FindSession returns the session of id; auth.ErrSessionNotFound for one
// that ended.
func (s *DB) FindSession(ctx context.Context, id string) (auth.Session, error) {
	if err := s.ready(ctx); err != nil {
		return auth.Session{}, fmt.Errorf("find session: %w", err)
	}
	sess, err := s.scanSession(s.db.QueryRowContext(ctx, s.d.rebind(`SELECT `+sessionColumns+` FROM auth_sessions WHERE id = ?`), id))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return sess, auth.ErrSessionNotFound
	case err != nil:
		return sess, fmt.Errorf("find session: %w: %w", ErrUnavailable, err)
	}
	return sess, nil
}

// sessionUserColumns select a session (s), its user (u) and the user's
// factors (f), with sessionUserJoin: one row per factor, or one with NULL
// factor columns.
const (
	sessionUserColumns = `s.id, s.user_id, s.created_at, s.refreshed_at, s.aal, s.amr, s.factor_id,
		u.email, u.user_metadata, u.created_at, u.updated_at, u.email_confirmed_at, u.last_sign_in_at,
		f.id, f.friendly_name, f.factor_type, f.status, f.created_at, f.updated_at, f.last_challenged_at`
	sessionUserJoin = `JOIN auth_users u ON u.id = s.user_id LEFT JOIN auth_mfa_factors f ON f.user_id = u.id`
)

// sessionUser gathers the rows of a sessionUserColumns query.
type sessionUser struct {
	found bool
	sess  auth.Session
	user  auth.User
}

// scan reads one row; more are the destinations of the columns that follow
// sessionUserColumns.
func (su *sessionUser) scan(s *DB, rows *sql.Rows, more ...any) error {
	var meta string
	var f struct {
		id, name, typ, status *string
		created, updated      *time.Time
		challenged            *time.Time
	}
	u := &su.user
	row, err := s.scanSession(rows, append([]any{&u.Email, &meta, s.d.timeDest(&u.CreatedAt), s.d.timeDest(&u.UpdatedAt),
		nullTimeDest(&u.EmailConfirmedAt), nullTimeDest(&u.LastSignInAt),
		&f.id, &f.name, &f.typ, &f.status, nullTimeDest(&f.created), nullTimeDest(&f.updated), nullTimeDest(&f.challenged)}, more...)...)
	if err != nil {
		return err
	}
	if !su.found {
		su.found, su.sess, u.ID = true, row, row.UserID
		if err := json.Unmarshal([]byte(meta), &u.UserMetadata); err != nil {
			return fmt.Errorf("user %s metadata: %w", u.ID, err)
		}
		u.UserMetadata = nonNilMap(u.UserMetadata)
	}
	if f.id != nil {
		u.Factors = append(u.Factors, auth.Factor{ID: *f.id, UserID: u.ID, FriendlyName: *f.name, FactorType: *f.typ,
			Status: *f.status, CreatedAt: *f.created, UpdatedAt: *f.updated, LastChallengedAt: f.challenged})
	}
	return nil
}

// FindSessionUser implements auth.Store, in one query: every request with
// an access token makes it.
func (s *DB) FindSessionUser(ctx context.Context, id string) (auth.Session, auth.User, error) {
	var su sessionUser
	err := s.queryPrepared(ctx, "find session", `SELECT `+sessionUserColumns+` FROM auth_sessions s `+sessionUserJoin+`
		WHERE s.id = ? ORDER BY f.created_at, f.id`, []any{id}, func(rows *sql.Rows) error { return su.scan(s, rows) })
	switch {
	case err != nil:
		return su.sess, su.user, err
	case !su.found:
		return su.sess, su.user, auth.ErrSessionNotFound
	}
	return su.sess, su.user, nil
}

// The statements of RefreshSession.
const (
	refreshFind = `SELECT ` + sessionUserColumns + `, t.id, t.revoked_at
		FROM auth_refresh_tokens t JOIN auth_sessions s ON s.id = t.session_id ` + sessionUserJoin + `
		WHERE t.token_hash = ? ORDER BY f.created_at, f.id`
	refreshRevoke = `UPDATE auth_refresh_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL`
	refreshInsert = `INSERT INTO auth_refresh_tokens (token_hash, session_id, parent_id, created_at) VALUES (?, ?, ?, ?)`
	refreshTouch  = `UPDATE auth_sessions SET refreshed_at = ? WHERE id = ?`
)

// RefreshSession implements auth.Store. Two requests that rotate the same
// token at once are told apart by a compare-and-set on revoked_at: the
// loser sees a token revoked just now, within the grace window, and gets a
// child of its own.
func (s *DB) RefreshSession(ctx context.Context, oldHash, newHash string, now time.Time, grace time.Duration,
	valid func(auth.Session) error) (auth.Session, auth.User, error) {
	var sess auth.Session
	var u auth.User
	var outcome error
	s.keepPrepared(ctx, refreshFind, refreshRevoke, refreshInsert, refreshTouch)
	err := s.write(ctx, "refresh session", func(tx *sql.Tx) error {
		var id int64
		var revoked *time.Time
		var su sessionUser
		err := s.txQuery(ctx, tx, refreshFind, []any{oldHash},
			func(rows *sql.Rows) error { return su.scan(s, rows, &id, nullTimeDest(&revoked)) })
		if err != nil {
			return err
		}
		if !su.found { // a session's tokens go with it
			outcome = auth.ErrRefreshTokenNotFound
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
			outcome = auth.ErrRefreshTokenReused
			return s.audit(ctx, tx, auth.AuditEntry{At: now, Action: auth.ActionTokenReused, UserID: sess.UserID, SessionID: sess.ID})
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

// EndSessions implements auth.Store.
func (s *DB) EndSessions(ctx context.Context, userID, sessionID string, scope auth.LogoutScope, audit auth.AuditEntry) error {
	return s.write(ctx, "end sessions", func(tx *sql.Tx) error {
		var err error
		switch scope {
		case auth.ScopeLocal:
			err = s.endSessions(ctx, tx, `id = ? AND user_id = ?`, sessionID, userID)
		case auth.ScopeOthers:
			err = s.endSessions(ctx, tx, `user_id = ? AND id <> ?`, userID, sessionID)
		case auth.ScopeGlobal:
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

// EnsureSigningKey implements auth.Store. Servers starting at once against
// one PostgreSQL take turns, so only the first one's candidate is kept.
func (s *DB) EnsureSigningKey(ctx context.Context, candidate auth.SigningKey) ([]auth.SigningKey, error) {
	var keys []auth.SigningKey
	err := s.write(ctx, "ensure signing key", func(tx *sql.Tx) error {
		if s.d.lockMigrations != "" {
			if _, err := tx.ExecContext(ctx, s.d.lockMigrations); err != nil {
				return err
			}
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM auth_signing_keys`).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			if _, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO auth_signing_keys (kid, algorithm, private_key, created_at)
				VALUES (?, ?, ?, ?)`), candidate.KID, candidate.Algorithm, candidate.PrivateKey, s.d.timeArg(candidate.CreatedAt)); err != nil {
				return err
			}
		}
		rows, err := tx.QueryContext(ctx, `SELECT kid, algorithm, private_key, created_at FROM auth_signing_keys ORDER BY created_at DESC, kid`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var k auth.SigningKey
			if err := rows.Scan(&k.KID, &k.Algorithm, &k.PrivateKey, s.d.timeDest(&k.CreatedAt)); err != nil {
				return err
			}
			keys = append(keys, k)
		}
		return rows.Err()
	})
	return keys, err
}

// AddSigningKey stores a new signing key; being the newest, it signs from
// the next time the servers read the keys.
func (s *DB) AddSigningKey(ctx context.Context, k auth.SigningKey) error {
	return s.write(ctx, "add signing key", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO auth_signing_keys (kid, algorithm, private_key, created_at)
			VALUES (?, ?, ?, ?)`), k.KID, k.Algorithm, k.PrivateKey, s.d.timeArg(k.CreatedAt))
		return err
	})
}

// ListSigningKeys returns every signing key, newest first.
func (s *DB) ListSigningKeys(ctx context.Context) ([]auth.SigningKey, error) {
	var keys []auth.SigningKey
	err := s.query(ctx, "list signing keys", `SELECT kid, algorithm, private_key, created_at FROM auth_signing_keys
		ORDER BY created_at DESC, kid`, nil, func(rows *sql.Rows) error {
		var k auth.SigningKey
		if err := rows.Scan(&k.KID, &k.Algorithm, &k.PrivateKey, s.d.timeDest(&k.CreatedAt)); err != nil {
			return err
		}
		keys = append(keys, k)
		return nil
	})
	return keys, err
}

// ReplaceSigningKey implements auth.SealingStore: it stores next as kid's
// private key if it is still prev.
func (s *DB) ReplaceSigningKey(ctx context.Context, kid string, prev, next []byte) (bool, error) {
	var n int64
	err := s.write(ctx, "replace signing key", func(tx *sql.Tx) error {
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
	return s.write(ctx, "delete signing key", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM auth_signing_keys WHERE kid = ?`), kid)
		return err
	})
}

// Audit implements auth.Store.
func (s *DB) Audit(ctx context.Context, e auth.AuditEntry) error {
	return s.write(ctx, "audit", func(tx *sql.Tx) error { return s.audit(ctx, tx, e) })
}

func (s *DB) audit(ctx context.Context, tx *sql.Tx, e auth.AuditEntry) error {
	if e.Action == "" {
		return nil
	}
	_, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO auth_audit_log (at, action, email, user_id, session_id, ip, detail)
		VALUES (?, ?, ?, ?, ?, ?, ?)`), s.d.timeArg(e.At), e.Action, e.Email, e.UserID, e.SessionID, e.IP, e.Detail)
	return err
}

// ListAudit returns the audit log from since on, oldest first.
func (s *DB) ListAudit(ctx context.Context, since time.Time) ([]auth.AuditEntry, error) {
	var out []auth.AuditEntry
	err := s.query(ctx, "list audit log", `SELECT at, action, email, user_id, session_id, ip, detail
		FROM auth_audit_log WHERE at >= ? ORDER BY at, id`, []any{s.d.timeArg(since)}, func(rows *sql.Rows) error {
		var e auth.AuditEntry
		if err := rows.Scan(s.d.timeDest(&e.At), &e.Action, &e.Email, &e.UserID, &e.SessionID, &e.IP, &e.Detail); err != nil {
			return err
		}
		out = append(out, e)
		return nil
	})
	return out, err
}
