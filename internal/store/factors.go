package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"studio/internal/auth"
)

// Second factors of the staff sign-in (package auth's TOTP MFA) and their
// challenges.

const factorColumns = `id, user_id, friendly_name, factor_type, status, secret, last_used_step, created_at, updated_at, last_challenged_at`

// userFactors returns the user's factors, oldest first.
func (s *DB) userFactors(ctx context.Context, q queryer, userID string) ([]auth.Factor, error) {
	rows, err := q.QueryContext(ctx, s.d.rebind(`SELECT `+factorColumns+` FROM auth_mfa_factors WHERE user_id = ? ORDER BY created_at, id`), userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []auth.Factor
	for rows.Next() {
		var f auth.Factor
		if err := rows.Scan(&f.ID, &f.UserID, &f.FriendlyName, &f.FactorType, &f.Status, &f.Secret, &f.LastUsedStep,
			s.d.timeDest(&f.CreatedAt), s.d.timeDest(&f.UpdatedAt), nullTimeDest(&f.LastChallengedAt)); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// CreateFactor implements auth.Store.
func (s *DB) CreateFactor(ctx context.Context, f auth.Factor, staleBefore time.Time, check func([]auth.Factor) error, audit auth.AuditEntry) error {
	var outcome error
	err := s.write(ctx, "create factor", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM auth_mfa_factors WHERE user_id = ? AND status <> ? AND created_at < ?
			AND NOT EXISTS (SELECT 1 FROM auth_mfa_challenges c WHERE c.factor_id = auth_mfa_factors.id)`),
			f.UserID, auth.FactorVerified, s.d.timeArg(staleBefore)); err != nil {
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
			(id, user_id, friendly_name, factor_type, status, secret, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT DO NOTHING`),
			f.ID, f.UserID, f.FriendlyName, f.FactorType, f.Status, f.Secret, s.d.timeArg(f.CreatedAt), s.d.timeArg(f.UpdatedAt))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			outcome = auth.ErrFactorNameConflict // a concurrent enrolment took the name
			return err
		}
		return s.audit(ctx, tx, audit)
	})
	if err != nil {
		return err
	}
	return outcome
}

// CreateChallenge implements auth.Store.
func (s *DB) CreateChallenge(ctx context.Context, c auth.Challenge, audit auth.AuditEntry) error {
	var found bool
	err := s.write(ctx, "create challenge", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE auth_mfa_factors SET last_challenged_at = ? WHERE id = ?`),
			s.d.timeArg(c.CreatedAt), c.FactorID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return err
		}
		found = true
		if _, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO auth_mfa_challenges (id, factor_id, ip, created_at, expires_at)
			VALUES (?, ?, ?, ?, ?)`), c.ID, c.FactorID, c.IP, s.d.timeArg(c.CreatedAt), s.d.timeArg(c.ExpiresAt)); err != nil {
			return err
		}
		return s.audit(ctx, tx, audit)
	})
	if err == nil && !found {
		return auth.ErrNotFound
	}
	return err
}

// VerifyFactor implements auth.Store. It reads the factor's row first and
// FOR UPDATE: the verifications of one factor run one after the other, so
// that two in flight never both see the same last used step, wrong codes or
// challenge tries (a code accepted twice, more guesses than allowed).
// Every write of a factor's challenges takes the factor's row first too, so
// that these locks are always taken in the same order.
func (s *DB) VerifyFactor(ctx context.Context, v auth.FactorVerification) (auth.Session, auth.User, error) {
	var sess auth.Session
	var u auth.User
	var outcome error
	err := s.write(ctx, "verify factor", func(tx *sql.Tx) error {
		var secret string
		var lastStep int64
		var failures auth.FactorFailures
		var failedSince *time.Time
		err := tx.QueryRowContext(ctx, s.d.rebind(`SELECT secret, last_used_step, failed_codes, failed_since FROM auth_mfa_factors
			WHERE id = ? AND user_id = ?`+s.d.forUpdate), v.FactorID, v.UserID).
			Scan(&secret, &lastStep, &failures.Count, nullTimeDest(&failedSince))
		if errors.Is(err, sql.ErrNoRows) {
			outcome = auth.ErrChallengeNotFound
			return nil
		}
		if err != nil {
			return err
		}
		if failedSince != nil {
			failures.Since = *failedSince
		}
		var ip string
		var tries int
		var expires time.Time
		var verified *time.Time
		err = tx.QueryRowContext(ctx, s.d.rebind(`SELECT ip, tries, expires_at, verified_at FROM auth_mfa_challenges
			WHERE id = ? AND factor_id = ?`), v.ChallengeID, v.FactorID).Scan(&ip, &tries, s.d.timeDest(&expires), nullTimeDest(&verified))
		switch {
		case errors.Is(err, sql.ErrNoRows):
			outcome = auth.ErrChallengeNotFound
			return nil
		case err != nil:
			return err
		case verified != nil || ip != v.IP:
			outcome = auth.ErrChallengeIPMismatch
			return nil
		case !v.Now.Before(expires):
			outcome = auth.ErrChallengeExpired
			_, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM auth_mfa_challenges WHERE id = ?`), v.ChallengeID)
			return err
		}
		if until := failures.LockedUntil(v.Now); !until.IsZero() {
			outcome = &auth.FactorLockedError{Until: until}
			return nil
		}
		step, ok, err := v.Check(secret, lastStep)
		if err != nil {
			return err
		}
		if !ok {
			outcome = auth.ErrVerificationFailed
			return s.countWrongCode(ctx, tx, v, tries, failures)
		}
		sess, err = s.scanSession(tx.QueryRowContext(ctx, s.d.rebind(`SELECT `+sessionColumns+` FROM auth_sessions WHERE id = ? AND user_id = ?`),
			v.SessionID, v.UserID))
		if errors.Is(err, sql.ErrNoRows) {
			outcome = auth.ErrSessionNotFound
			return nil
		}
		if err != nil {
			return err
		}
		sess.AAL, sess.FactorID = "aal2", v.FactorID
		sess.AMR = append([]auth.AMREntry{v.AMR}, slices.DeleteFunc(sess.AMR, func(e auth.AMREntry) bool { return e.Method == v.AMR.Method })...)
		amr, err := json.Marshal(sess.AMR)
		if err != nil {
			return err
		}
		for _, st := range []struct {
			q    string
			args []any
		}{
			{`UPDATE auth_mfa_challenges SET verified_at = ? WHERE id = ?`, []any{s.d.timeArg(v.Now), v.ChallengeID}},
			{`UPDATE auth_mfa_factors SET status = ?, last_used_step = ?, updated_at = ? WHERE id = ?`,
				[]any{auth.FactorVerified, step, s.d.timeArg(v.Now), v.FactorID}},
			{`DELETE FROM auth_mfa_factors WHERE user_id = ? AND status <> ? AND factor_type = ?`,
				[]any{v.UserID, auth.FactorVerified, auth.FactorTOTP}},
			{`UPDATE auth_sessions SET aal = ?, amr = ?, factor_id = ? WHERE id = ?`, []any{sess.AAL, string(amr), sess.FactorID, sess.ID}},
			{`UPDATE auth_refresh_tokens SET revoked_at = ? WHERE session_id = ? AND revoked_at IS NULL`, []any{s.d.timeArg(v.Now), sess.ID}},
			{`INSERT INTO auth_refresh_tokens (token_hash, session_id, created_at) VALUES (?, ?, ?)`, []any{v.RefreshHash, sess.ID, s.d.timeArg(v.Now)}},
		} {
			if _, err := tx.ExecContext(ctx, s.d.rebind(st.q), st.args...); err != nil {
				return err
			}
		}
		// The user's sessions below aal2 end, as in GoTrue.
		if err := s.endSessions(ctx, tx, `user_id = ? AND aal <> 'aal2'`, v.UserID); err != nil {
			return err
		}
		if u, err = s.scanUser(tx.QueryRowContext(ctx, s.d.rebind(`SELECT `+userColumns+` FROM auth_users WHERE id = ?`), v.UserID)); err != nil {
			return err
		}
		if u.Factors, err = s.userFactors(ctx, tx, u.ID); err != nil {
			return err
		}
		return s.audit(ctx, tx, v.Audit)
	})
	if err != nil {
		return sess, u, err
	}
	return sess, u, outcome
}

// countWrongCode counts a wrong code against the challenge (the last try
// ends it) and the factor, and logs it; the code that locks the factor out
// also logs v.Locked and queues v.LockedMail.
func (s *DB) countWrongCode(ctx context.Context, tx *sql.Tx, v auth.FactorVerification, tries int, failures auth.FactorFailures) error {
	q := `UPDATE auth_mfa_challenges SET tries = tries + 1 WHERE id = ?`
	if tries+1 >= v.MaxTries {
		q = `DELETE FROM auth_mfa_challenges WHERE id = ?`
	}
	if _, err := tx.ExecContext(ctx, s.d.rebind(q), v.ChallengeID); err != nil {
		return err
	}
	failures, locks := failures.Add(v.Now)
	if _, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE auth_mfa_factors SET failed_codes = ?, failed_since = ? WHERE id = ?`),
		failures.Count, s.d.timeArg(failures.Since), v.FactorID); err != nil {
		return err
	}
	if err := s.audit(ctx, tx, v.Failure); err != nil || !locks {
		return err
	}
	if v.LockedMail != nil {
		if err := s.queueMail(ctx, tx, *v.LockedMail, v.Now); err != nil {
			return err
		}
	}
	return s.audit(ctx, tx, v.Locked)
}

// DeleteFactor implements auth.Store.
func (s *DB) DeleteFactor(ctx context.Context, userID, factorID string, audit auth.AuditEntry) error {
	var found bool
	err := s.write(ctx, "delete factor", func(tx *sql.Tx) error {
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
		return fmt.Errorf("delete factor %s: %w", factorID, auth.ErrNotFound)
	}
	return err
}

// ResetFactors removes every factor of the user and ends their sessions
// ("studio staff reset-mfa", for someone who lost their authenticator or
// whose factor is locked out by someone guessing its codes), and returns how
// many factors there were.
func (s *DB) ResetFactors(ctx context.Context, userID string, audit auth.AuditEntry) (int, error) {
	var n int64
	err := s.write(ctx, "reset factors", func(tx *sql.Tx) error {
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
		audit.Detail = fmt.Sprintf("reset: %d factor(s)", n)
		return s.audit(ctx, tx, audit)
	})
	return int(n), err
}
