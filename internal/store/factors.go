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

// Second factors of the staff sign-in (package auth's TOTP MFA) and their
// challenges.

const factorColumns = `id, user_id, friendly_name, factor_type, status, secret, last_used_step, created_at, updated_at, last_challenged_at, phone`

// userFactors returns the user's factors, oldest first.
func (s *DB) userFactors(ctx context.Context, q queryer, userID string) ([]staff.Factor, error) {
	rows, err := q.QueryContext(ctx, s.d.rebind(`SELECT `+factorColumns+` FROM auth_mfa_factors WHERE user_id = ? ORDER BY created_at, id`), userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []staff.Factor
	for rows.Next() {
		var f staff.Factor
		if err := s.scanFactor(rows, &f); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// scanFactor reads the factorColumns of a row into f; more are the
// destinations of the columns that follow.
func (s *DB) scanFactor(row scanner, f *staff.Factor, more ...any) error {
	return row.Scan(append([]any{&f.ID, &f.UserID, &f.FriendlyName, &f.FactorType, &f.Status, &f.Secret, &f.LastUsedStep,
		s.d.timeDest(&f.CreatedAt), s.d.timeDest(&f.UpdatedAt), nullTimeDest(&f.LastChallengedAt), &f.Phone}, more...)...)
}

// CreateFactor implements staff.Store.
func (s *DB) CreateFactor(ctx context.Context, f staff.Factor, staleBefore time.Time, check func([]staff.Factor) error, audit staff.AuditEntry) error {
	var outcome error
	err := s.write(ctx, "create factor", func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM auth_mfa_factors WHERE user_id = ? AND status <> ? AND created_at < ?
			AND NOT EXISTS (SELECT 1 FROM auth_mfa_challenges c WHERE c.factor_id = auth_mfa_factors.id)`),
			f.UserID, staff.FactorVerified, s.d.timeArg(staleBefore)); err != nil {
			return err
		}
		existing, err := s.userFactors(ctx, tx, f.UserID)
		if err != nil {
			return err
		}
		if outcome = check(existing); outcome != nil {
			return nil
		}
		res, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO auth_mfa_factors
			(id, user_id, friendly_name, factor_type, status, secret, created_at, updated_at, phone) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT DO NOTHING`),
			f.ID, f.UserID, f.FriendlyName, f.FactorType, f.Status, f.Secret, s.d.timeArg(f.CreatedAt), s.d.timeArg(f.UpdatedAt), f.Phone)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			outcome = staff.ErrFactorNameConflict // a concurrent enrolment took the name
			return err
		}
		return s.audit(ctx, tx, audit)
	})
	if err != nil {
		return err
	}
	return outcome
}

// CreateChallenge implements staff.Store.
func (s *DB) CreateChallenge(ctx context.Context, c staff.Challenge, audit staff.AuditEntry) error {
	var found bool
	err := s.write(ctx, "create challenge", func(ctx context.Context, tx *sql.Tx) error {
		var err error
		if found, err = s.insertChallenge(ctx, tx, c); err != nil || !found {
			return err
		}
		return s.audit(ctx, tx, audit)
	})
	if err == nil && !found {
		return staff.ErrNotFound
	}
	return err
}

// insertChallenge notes when c's factor was challenged and stores c; not
// found when the factor is gone.
func (s *DB) insertChallenge(ctx context.Context, tx *sql.Tx, c staff.Challenge) (found bool, err error) {
	res, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE auth_mfa_factors SET last_challenged_at = ? WHERE id = ?`),
		s.d.timeArg(c.CreatedAt), c.FactorID)
	if err != nil {
		return false, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return false, err
	}
	_, err = tx.ExecContext(ctx, s.d.rebind(`INSERT INTO auth_mfa_challenges (id, factor_id, ip, created_at, expires_at, code_hash)
		VALUES (?, ?, ?, ?, ?, ?)`), c.ID, c.FactorID, c.IP, s.d.timeArg(c.CreatedAt), s.d.timeArg(c.ExpiresAt), c.CodeHash)
	return err == nil, err
}

// VerifyFactor implements staff.Store: it reads the attempt, asks v.Decide
// and writes the decision, in one transaction. The factor's row is read
// first and FOR UPDATE: the verifications of one factor run one after the
// other, so that two in flight never both see the same last used step,
// wrong codes or challenge tries (a code accepted twice, more guesses than
// allowed). Every write of a factor's challenges takes the factor's row
// first too, so that these locks are always taken in the same order.
func (s *DB) VerifyFactor(ctx context.Context, v staff.FactorVerification) (staff.Session, staff.User, error) {
	return s.verifyFactor(ctx, "verify factor", v, func(ctx context.Context, tx *sql.Tx) (staff.FactorDecision, error) {
		a, err := s.factorAttempt(ctx, tx, v)
		if err != nil {
			return staff.FactorDecision{}, err
		}
		return v.Decide(a)
	})
}

// verifyFactor runs decide, writes its decision and, when it raised the
// session, reads the user, in one transaction: what VerifyFactor and
// VerifyWebAuthnFactor share. decide reads the factor's row first.
func (s *DB) verifyFactor(ctx context.Context, op string, v staff.FactorVerification,
	decide func(ctx context.Context, tx *sql.Tx) (staff.FactorDecision, error)) (staff.Session, staff.User, error) {
	var d staff.FactorDecision
	var u staff.User
	err := s.write(ctx, op, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		if d, err = decide(ctx, tx); err != nil {
			return err
		}
		if d.Refused == nil && d.Raised == nil {
			return errors.New("the decision neither refuses the attempt nor raises the session")
		}
		if err := s.applyFactorDecision(ctx, tx, v, d); err != nil || d.Raised == nil {
			return err
		}
		u, err = s.userWhere(ctx, tx, `id = ?`, v.UserID)
		return err
	})
	switch {
	case err != nil:
		return staff.Session{}, staff.User{}, err
	case d.Refused != nil:
		return staff.Session{}, staff.User{}, d.Refused
	}
	return d.Raised.Session, u, nil
}

// factorAttempt reads v's factor (FOR UPDATE) with its wrong codes, its
// challenge and its session; it stops at the first that is missing.
func (s *DB) factorAttempt(ctx context.Context, tx *sql.Tx, v staff.FactorVerification) (staff.FactorAttempt, error) {
	var a staff.FactorAttempt
	var f staff.Factor
	var failedSince *time.Time
	err := s.scanFactor(tx.QueryRowContext(ctx, s.d.rebind(`SELECT `+factorColumns+`, failed_codes, failed_since FROM auth_mfa_factors
		WHERE id = ? AND user_id = ?`+s.d.forUpdate), v.FactorID, v.UserID), &f, &a.Failures.Count, nullTimeDest(&failedSince))
	if err != nil {
		return a, noRowsIsNil(err)
	}
	a.Factor = &f
	if failedSince != nil {
		a.Failures.Since = *failedSince
	}
	c := staff.Challenge{ID: v.ChallengeID, FactorID: v.FactorID}
	err = tx.QueryRowContext(ctx, s.d.rebind(`SELECT ip, tries, created_at, expires_at, verified_at, code_hash FROM auth_mfa_challenges
		WHERE id = ? AND factor_id = ?`), v.ChallengeID, v.FactorID).
		Scan(&c.IP, &c.Tries, s.d.timeDest(&c.CreatedAt), s.d.timeDest(&c.ExpiresAt), nullTimeDest(&c.VerifiedAt), &c.CodeHash)
	if err != nil {
		return a, noRowsIsNil(err)
	}
	a.Challenge = &c
	sess, err := s.scanSession(tx.QueryRowContext(ctx, s.d.rebind(`SELECT `+sessionColumns+` FROM auth_sessions WHERE id = ? AND user_id = ?`),
		v.SessionID, v.UserID))
	if err != nil {
		return a, noRowsIsNil(err)
	}
	a.Session = &sess
	return a, nil
}

// noRowsIsNil is err, or nil for sql.ErrNoRows.
func noRowsIsNil(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	return err
}

// challengeWrites are the statements of the fates of a challenge (id, then
// the time for ChallengeUsed).
var challengeWrites = map[staff.ChallengeFate]string{
	staff.ChallengeTried:   `UPDATE auth_mfa_challenges SET tries = tries + 1 WHERE id = ?`,
	staff.ChallengeDropped: `DELETE FROM auth_mfa_challenges WHERE id = ?`,
	staff.ChallengeUsed:    `UPDATE auth_mfa_challenges SET verified_at = ? WHERE id = ?`,
}

// applyFactorDecision writes d, the decision on v.
func (s *DB) applyFactorDecision(ctx context.Context, tx *sql.Tx, v staff.FactorVerification, d staff.FactorDecision) error {
	if q, ok := challengeWrites[d.Challenge]; ok {
		args := []any{v.ChallengeID}
		if d.Challenge == staff.ChallengeUsed {
			args = []any{s.d.timeArg(v.Now), v.ChallengeID}
		}
		if _, err := tx.ExecContext(ctx, s.d.rebind(q), args...); err != nil {
			return err
		}
	}
	if d.Failures != nil {
		if _, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE auth_mfa_factors SET failed_codes = ?, failed_since = ? WHERE id = ?`),
			d.Failures.Count, s.d.timeArg(d.Failures.Since), v.FactorID); err != nil {
			return err
		}
	}
	if d.Raised != nil {
		if err := s.raiseSession(ctx, tx, *d.Raised, v.Now); err != nil {
			return err
		}
	}
	if d.Mail != nil {
		if err := s.queueMail(ctx, tx, *d.Mail, v.Now, ""); err != nil {
			return err
		}
	}
	for _, e := range d.Audit {
		if err := s.audit(ctx, tx, e); err != nil {
			return err
		}
	}
	return nil
}

// raiseSession writes r (auth.RaisedSession says what that is).
func (s *DB) raiseSession(ctx context.Context, tx *sql.Tx, r staff.RaisedSession, now time.Time) error {
	sess := r.Session
	amr, err := json.Marshal(sess.AMR)
	if err != nil {
		return err
	}
	for _, st := range []struct {
		q    string
		args []any
	}{
		{`UPDATE auth_mfa_factors SET status = ?, last_used_step = ?, updated_at = ? WHERE id = ?`,
			[]any{staff.FactorVerified, r.Step, s.d.timeArg(now), sess.FactorID}},
		{`DELETE FROM auth_mfa_factors WHERE user_id = ? AND status <> ?
			AND factor_type = (SELECT factor_type FROM auth_mfa_factors WHERE id = ?)`,
			[]any{sess.UserID, staff.FactorVerified, sess.FactorID}},
		{`UPDATE auth_sessions SET aal = ?, amr = ?, factor_id = ? WHERE id = ?`, []any{sess.AAL, string(amr), sess.FactorID, sess.ID}},
		{`UPDATE auth_refresh_tokens SET revoked_at = ? WHERE session_id = ? AND revoked_at IS NULL`, []any{s.d.timeArg(now), sess.ID}},
		{`INSERT INTO auth_refresh_tokens (token_hash, session_id, created_at) VALUES (?, ?, ?)`, []any{r.RefreshHash, sess.ID, s.d.timeArg(now)}},
	} {
		if _, err := tx.ExecContext(ctx, s.d.rebind(st.q), st.args...); err != nil {
			return err
		}
	}
	return s.endSessions(ctx, tx, `user_id = ? AND aal <> 'aal2'`, sess.UserID)
}

// DeleteFactor implements staff.Store.
func (s *DB) DeleteFactor(ctx context.Context, userID, factorID string, audit staff.AuditEntry) error {
	var found bool
	err := s.write(ctx, "delete factor", func(ctx context.Context, tx *sql.Tx) error {
		// The factor's row first (VerifyFactor's order); its challenges go
		// with it (ON DELETE CASCADE).
		res, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM auth_mfa_factors WHERE id = ? AND user_id = ?`), factorID, userID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return err
		}
		found = true
		if _, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE auth_sessions SET aal = 'aal1', factor_id = '' WHERE user_id = ? AND factor_id = ?`),
			userID, factorID); err != nil {
			return err
		}
		return s.audit(ctx, tx, audit)
	})
	if err == nil && !found {
		return fmt.Errorf("delete factor %s: %w", factorID, staff.ErrNotFound)
	}
	return err
}

// ResetFactors removes every factor of the user, ends their sessions and
// clears their count of wrong sign-in codes ("studio staff reset-mfa", for
// someone who lost their authenticator or whose factor or codes are locked
// out by someone guessing), and returns how many factors there were.
func (s *DB) ResetFactors(ctx context.Context, userID string, audit staff.AuditEntry) (int, error) {
	var n int64
	err := s.write(ctx, "reset factors", func(ctx context.Context, tx *sql.Tx) error {
		// The factors' rows first (VerifyFactor's order); their challenges
		// and counts of wrong codes go with them (ON DELETE CASCADE).
		res, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM auth_mfa_factors WHERE user_id = ?`), userID)
		if err != nil {
			return err
		}
		if n, err = res.RowsAffected(); err != nil {
			return err
		}
		if err := s.endSessions(ctx, tx, `user_id = ?`, userID); err != nil {
			return err
		}
		if _, err := s.clearCodeFailures(ctx, tx, userID); err != nil {
			return err
		}
		audit.Detail = fmt.Sprintf("reset: %d factor(s)", n)
		return s.audit(ctx, tx, audit)
	})
	return int(n), err
}
