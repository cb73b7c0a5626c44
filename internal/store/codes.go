package store

import (
	"context"
	"crypto/subtle"
	"database/sql"
	"errors"
	"time"

	"studio/internal/notify"
	"studio/internal/staff"
)

// One-time codes of the staff sign-in (package auth): the codes and links
// mailed or printed, their PKCE challenges, and the per-address limit on
// the mails that carry them.

// ClaimEmailSend implements staff.Store. Rows older than a day are pruned
// on the way, so the table holds only recent addresses, and so are the
// counts of wrong codes whose window ended (code_failures.go).
func (s *DB) ClaimEmailSend(ctx context.Context, addressHash string, now time.Time, interval time.Duration,
	code *staff.Code, mail *notify.Email, audit staff.AuditEntry) (time.Duration, error) {
	var retry time.Duration
	err := s.write(ctx, "claim e-mail send", func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM auth_email_sends WHERE last_sent_at < ?`),
			s.d.timeArg(now.Add(-24*time.Hour))); err != nil {
			return err
		}
		if err := s.pruneCodeFailures(ctx, tx, now); err != nil {
			return err
		}
		// One statement claims the address or finds it claimed: concurrent
		// claims on PostgreSQL wait for each other's row and see its new
		// time, so only one of them is granted.
		var claimed string
		err := tx.QueryRowContext(ctx, s.d.rebind(`INSERT INTO auth_email_sends (address_hash, last_sent_at) VALUES (?, ?)
			ON CONFLICT (address_hash) DO UPDATE SET last_sent_at = excluded.last_sent_at
			WHERE auth_email_sends.last_sent_at <= ?
			RETURNING address_hash`),
			addressHash, s.d.timeArg(now), s.d.timeArg(now.Add(-interval))).Scan(&claimed)
		if errors.Is(err, sql.ErrNoRows) {
			var last time.Time
			err = tx.QueryRowContext(ctx, s.d.rebind(`SELECT last_sent_at FROM auth_email_sends WHERE address_hash = ?`), addressHash).
				Scan(s.d.timeDest(&last))
			retry = max(interval-now.Sub(last), time.Second)
			return err
		}
		if err != nil {
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
		return retry, staff.ErrEmailSendRateExceeded
	}
	return 0, nil
}

// QueueCode implements staff.Store.
func (s *DB) QueueCode(ctx context.Context, c staff.Code, mail *notify.Email, audit staff.AuditEntry) error {
	return s.write(ctx, "queue code", func(ctx context.Context, tx *sql.Tx) error { return s.issueCode(ctx, tx, c, mail, audit) })
}

// CreateCode implements staff.Store.
func (s *DB) CreateCode(ctx context.Context, c staff.Code, audit staff.AuditEntry) error {
	return s.write(ctx, "create code", func(ctx context.Context, tx *sql.Tx) error { return s.issueCode(ctx, tx, c, nil, audit) })
}

// issueCode replaces the user's live code of c's purpose with c, queues
// mail when not nil, and logs audit.
func (s *DB) issueCode(ctx context.Context, tx *sql.Tx, c staff.Code, mail *notify.Email, audit staff.AuditEntry) error {
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
		if err := s.queueMail(ctx, tx, *mail, c.CreatedAt, ""); err != nil {
			return err
		}
	}
	return s.audit(ctx, tx, audit)
}

// A try of a code is one transaction: it finds the code, counts the try
// when the code's rules say so, uses the code when it is right, and logs
// the failure otherwise (tryCode). The failure's audit entry is auth's
// (staff.FailedTry); it is written here and only here.

// codeTry is the result of one try of a code.
type codeTry struct {
	userID  string // the code's user; "" when no live code was found
	refused error  // why the code was not used (staff.ErrCodeInvalid, …); nil when it was
	// kept, when not nil, is returned although the code was used, and no
	// session is started (staff.ErrExists: the new address was taken
	// meanwhile).
	kept error
}

// tryCode runs try in a transaction and, when it refuses the code, logs
// failure (staff.FailedTry) in the same transaction. It returns the user of
// the code used (only their id when start is nil), or the refusal. When
// start is not nil, the code used starts that session in the same
// transaction (signIn).
func (s *DB) tryCode(ctx context.Context, op string, failure staff.AuditEntry, start *staff.SignIn,
	try func(context.Context, *sql.Tx) (codeTry, error)) (staff.User, error) {
	var t codeTry
	var u staff.User
	err := s.write(ctx, op, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		if t, err = try(ctx, tx); err != nil {
			return err
		}
		if t.refused != nil {
			return s.audit(ctx, tx, staff.FailedTry(failure, t.userID, t.refused))
		}
		u = staff.User{ID: t.userID}
		if start == nil || t.kept != nil {
			return nil
		}
		u, err = s.signIn(ctx, tx, t.userID, *start)
		return err
	})
	switch {
	case err != nil:
		return staff.User{}, err
	case t.refused != nil:
		return staff.User{}, t.refused
	}
	return u, t.kept
}

// signIn starts the session of start for the user of a code just used, in
// the code's transaction, and returns the user as the sign-in left them.
func (s *DB) signIn(ctx context.Context, tx *sql.Tx, userID string, start staff.SignIn) (staff.User, error) {
	u, err := s.userWhere(ctx, tx, `id = ?`, userID)
	if errors.Is(err, sql.ErrNoRows) {
		return u, staff.ErrNotFound
	}
	if err != nil {
		return u, err
	}
	sess, audit := start.Session, start.Audit
	sess.UserID = userID
	audit.Email, audit.UserID, audit.SessionID = u.Email, userID, sess.ID
	if err := s.startSession(ctx, tx, sess, start.RefreshHash, audit); err != nil {
		return u, err
	}
	at := sess.CreatedAt
	u.LastSignInAt, u.UpdatedAt = &at, at
	if u.EmailConfirmedAt == nil {
		u.EmailConfirmedAt = &at
	}
	return u, nil
}

// ConsumeCode implements staff.Store. Each try is one conditional UPDATE
// (consumeCode), so concurrent tries never compare more than maxTries.
func (s *DB) ConsumeCode(ctx context.Context, userID, purpose, codeHash string, now time.Time, maxTries int, failure staff.AuditEntry) error {
	match := func(_, stored string) bool { return subtle.ConstantTimeCompare([]byte(stored), []byte(codeHash)) == 1 }
	_, err := s.tryCode(ctx, "consume code", failure, nil,
		s.consumeCode(`user_id = ? AND purpose = ?`, []any{userID, purpose}, now, maxTries, match, nil))
	return err
}

// ConsumeCodeByEmail implements staff.Store: the person is found by address
// (tryTypedCode).
func (s *DB) ConsumeCodeByEmail(ctx context.Context, email, purpose string, now time.Time, maxTries int,
	match func(userID, codeHash string) bool, failure staff.CodeFailure, start *staff.SignIn) (staff.User, error) {
	return s.tryTypedCode(ctx, "consume code", personByEmail(email), now, failure, start,
		s.consumeCode(`user_id = (SELECT id FROM auth_users WHERE email = ?) AND purpose = ?`, []any{email, purpose}, now, maxTries, match, nil))
}

// ConsumeEmailChange implements staff.Store: the person is the one whose
// address email is, else that address (the new one, typically).
func (s *DB) ConsumeEmailChange(ctx context.Context, email string, now time.Time, maxTries int,
	match func(userID, codeHash string) bool, failure staff.CodeFailure, start *staff.SignIn) (staff.User, error) {
	return s.tryTypedCode(ctx, "consume e-mail change code", personByEmail(email), now, failure, start, s.consumeCode(`id = (SELECT c.id FROM auth_one_time_codes c
			WHERE c.purpose = ? AND c.used_at IS NULL AND c.expires_at > ? AND c.tries < ?
			AND (c.new_email = ? OR c.user_id IN (SELECT id FROM auth_users WHERE email = ?))
			ORDER BY c.id DESC LIMIT 1)`,
		[]any{staff.PurposeEmailChange, s.d.timeArg(now), maxTries, email, email}, now, maxTries, match,
		func(tx *sql.Tx, t *codeTry, newEmail string) error {
			changed, err := s.changeEmail(ctx, tx, t.userID, newEmail, now)
			if err == nil && !changed {
				t.kept = staff.ErrExists
			}
			return err
		}))
}

// consumeCode is the try (for tryCode) that counts a try on the live code
// that owner (a condition with args) selects and uses it when
// match(userID, its hash) holds, then calls then (when not nil) in the same
// transaction; otherwise it refuses the code with staff.ErrCodeInvalid. The
// try is one UPDATE that touches one row or none, followed by the same
// audit insert whether or not there was a code, so the time taken does not
// tell whether an address is staff's. A code tried maxTries times is dead,
// its link too (ConsumeLink).
func (s *DB) consumeCode(owner string, args []any, now time.Time, maxTries int,
	match func(userID, codeHash string) bool,
	then func(tx *sql.Tx, t *codeTry, newEmail string) error) func(context.Context, *sql.Tx) (codeTry, error) {
	return func(ctx context.Context, tx *sql.Tx) (codeTry, error) {
		var t codeTry
		var id int64
		var stored, newEmail string
		err := tx.QueryRowContext(ctx, s.d.rebind(`UPDATE auth_one_time_codes SET tries = tries + 1
			WHERE `+owner+` AND used_at IS NULL AND expires_at > ? AND tries < ?
			RETURNING id, user_id, code_hash, new_email`), append(args, s.d.timeArg(now), maxTries)...).
			Scan(&id, &t.userID, &stored, &newEmail)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return codeTry{refused: staff.ErrCodeInvalid}, nil
		case err != nil:
			return t, err
		case !match(t.userID, stored):
			t.refused = staff.ErrCodeInvalid
			return t, nil
		}
		if used, err := s.useCode(ctx, tx, id, now); err != nil || !used {
			t.refused = staff.ErrCodeInvalid // used by a concurrent try
			return t, err
		}
		if then == nil {
			return t, nil
		}
		err = then(tx, &t, newEmail)
		return t, err
	}
}

// ConsumeLink implements staff.Store. The hash is looked up by index: it is
// the hash of 256 random bits, so the lookup's timing tells nothing useful.
func (s *DB) ConsumeLink(ctx context.Context, linkHash, purpose string, now time.Time, maxTries int, failure staff.AuditEntry,
	start *staff.SignIn) (staff.User, error) {
	return s.tryCode(ctx, "consume link", failure, start, func(ctx context.Context, tx *sql.Tx) (codeTry, error) {
		var t codeTry
		var id int64
		var newEmail, challenge string
		err := tx.QueryRowContext(ctx, s.d.rebind(`SELECT id, user_id, new_email, code_challenge FROM auth_one_time_codes
			WHERE link_hash = ? AND purpose = ? AND used_at IS NULL AND expires_at > ? AND tries < ?`),
			linkHash, purpose, s.d.timeArg(now), maxTries).Scan(&id, &t.userID, &newEmail, &challenge)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return codeTry{refused: staff.ErrCodeInvalid}, nil
		case err != nil:
			return t, err
		case challenge != "":
			t.refused = staff.ErrPKCERequired // left for its verifier
			return t, nil
		}
		used, err := s.useCode(ctx, tx, id, now)
		if err == nil && used && purpose == staff.PurposeEmailChange {
			used, err = s.changeEmail(ctx, tx, t.userID, newEmail, now)
		}
		if !used {
			t.refused = staff.ErrCodeInvalid // used by a concurrent try, or the new address is taken
		}
		return t, err
	})
}

// ConsumePKCE implements staff.Store. The code's row is read FOR UPDATE, so
// that concurrent tries of one code count one after the other.
func (s *DB) ConsumePKCE(ctx context.Context, linkHash string, now time.Time, maxTries int,
	verifier func(challenge, method string) bool, failure staff.AuditEntry) (string, string, error) {
	var purpose string
	u, err := s.tryCode(ctx, "consume PKCE code", failure, nil, func(ctx context.Context, tx *sql.Tx) (codeTry, error) {
		var t codeTry
		var id int64
		var challenge, method string
		var expires time.Time
		err := tx.QueryRowContext(ctx, s.d.rebind(`SELECT id, user_id, purpose, code_challenge, code_challenge_method, expires_at
			FROM auth_one_time_codes WHERE link_hash = ? AND used_at IS NULL AND code_challenge <> '' AND tries < ?`+s.d.forUpdate),
			linkHash, maxTries).Scan(&id, &t.userID, &purpose, &challenge, &method, s.d.timeDest(&expires))
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return codeTry{refused: staff.ErrNotFound}, nil
		case err != nil:
			return t, err
		case !now.Before(expires):
			t.refused = staff.ErrFlowStateExpired
			return t, nil
		case !verifier(challenge, method):
			t.refused = staff.ErrBadCodeVerifier
			return t, s.countTry(ctx, tx, id)
		}
		if used, err := s.useCode(ctx, tx, id, now); err != nil || !used {
			t.refused = staff.ErrNotFound // used by a concurrent try
			return t, err
		}
		return t, nil
	})
	return u.ID, purpose, err
}

// countTry counts a wrong try of the code id; tried maxTries times, it is
// dead (every lookup asks for tries < maxTries).
func (s *DB) countTry(ctx context.Context, tx *sql.Tx, id int64) error {
	_, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE auth_one_time_codes SET tries = tries + 1 WHERE id = ?`), id)
	return err
}

// useCode marks the code id used; false when a concurrent request did.
func (s *DB) useCode(ctx context.Context, tx *sql.Tx, id int64, now time.Time) (bool, error) {
	res, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE auth_one_time_codes SET used_at = ? WHERE id = ? AND used_at IS NULL`),
		s.d.timeArg(now), id)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}
