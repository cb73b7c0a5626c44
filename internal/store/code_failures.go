package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"studio/internal/staff"
	"time"
)

// Wrong codes typed per person (package auth's codelock.go): a code typed
// with an address or a number is tried for the person it names, whose wrong
// codes are counted in auth_code_failures and lock their codes out. Every
// statement runs whether the person is staff or not, so that the work does
// not tell who is.

// person names whom a typed code is for: the member of staff that who (a
// condition on auth_users, with args) selects, else the address or number
// of hash.
type person struct {
	who  string
	args []any
	hash string
}

func personByEmail(email string) person {
	return person{`email = ?`, []any{email}, staff.AddressHash(email)}
}

func personByPhone(phone string) person {
	return person{`phone = ? AND phone <> ''`, []any{phone}, staff.PhoneHash(phone)}
}

// foundPerson is a person as found: key names their row of
// auth_code_failures; userID and email are the member of staff's, or "".
type foundPerson struct {
	key, userID, email string
}

// tryTypedCode is tryCode for a code typed for p: while p's codes are
// locked out it checks no code (*staff.CodesLockedError); a wrong code
// (staff.ErrCodeInvalid) counts against p (countCodeFailure). The person's
// row is read FOR UPDATE: on PostgreSQL, the tries for one person run one
// after the other once they have a wrong code, so that none is checked
// after the one that locks the codes out.
func (s *DB) tryTypedCode(ctx context.Context, op string, p person, now time.Time, failure staff.CodeFailure, start *staff.SignIn,
	try func(context.Context, *sql.Tx) (codeTry, error)) (staff.User, error) {
	return s.tryCode(ctx, op, failure.Audit, start, func(ctx context.Context, tx *sql.Tx) (codeTry, error) {
		who, failures, err := s.personFailures(ctx, tx, p)
		if err != nil {
			return codeTry{}, err
		}
		if until := failures.LockedUntil(now); !until.IsZero() {
			return codeTry{refused: &staff.CodesLockedError{Until: until}}, nil
		}
		t, err := try(ctx, tx)
		if err != nil || !errors.Is(t.refused, staff.ErrCodeInvalid) {
			return t, err
		}
		return t, s.countCodeFailure(ctx, tx, who, now, failure)
	})
}

// personFailures finds p and reads their wrong codes, their row locked.
func (s *DB) personFailures(ctx context.Context, tx *sql.Tx, p person) (foundPerson, staff.Failures, error) {
	who := foundPerson{key: p.hash}
	var f staff.Failures
	err := tx.QueryRowContext(ctx, s.d.rebind(`SELECT id, email FROM auth_users WHERE `+p.who), p.args...).Scan(&who.userID, &who.email)
	if err = noRowsIsNil(err); err != nil {
		return who, f, err
	}
	if who.userID != "" {
		who.key = who.userID
	}
	err = tx.QueryRowContext(ctx, s.d.rebind(`SELECT failed_codes, failed_since FROM auth_code_failures WHERE person = ?`+s.d.forUpdate),
		who.key).Scan(&f.Count, s.d.timeDest(&f.Since))
	return who, f, noRowsIsNil(err)
}

// countCodeFailure counts a wrong code typed for who at now, in a new window
// when theirs ended, in one statement (concurrent ones each count). The one
// that makes auth.MaxFailures logs failure.Locked and queues
// failure.LockedMail to a member of staff: the mail's statement runs for
// anyone, and inserts nothing for an address or number that is no one's.
func (s *DB) countCodeFailure(ctx context.Context, tx *sql.Tx, who foundPerson, now time.Time, failure staff.CodeFailure) error {
	windowEnded := s.d.timeArg(now.Add(-staff.FailureWindow))
	var count int
	err := tx.QueryRowContext(ctx, s.d.rebind(`INSERT INTO auth_code_failures (person, failed_codes, failed_since) VALUES (?, 1, ?)
		ON CONFLICT (person) DO UPDATE SET
		failed_codes = CASE WHEN auth_code_failures.failed_since <= ? THEN 1 ELSE auth_code_failures.failed_codes + 1 END,
		failed_since = CASE WHEN auth_code_failures.failed_since <= ? THEN excluded.failed_since ELSE auth_code_failures.failed_since END
		RETURNING failed_codes`), who.key, s.d.timeArg(now), windowEnded, windowEnded).Scan(&count)
	if err != nil || count != staff.MaxFailures {
		return err
	}
	locked := failure.Locked
	if who.userID != "" {
		locked.UserID, locked.Email = who.userID, who.email
	}
	if err := s.audit(ctx, tx, locked); err != nil {
		return err
	}
	if failure.LockedMail == nil {
		return nil
	}
	mail := failure.LockedMail(who.email)
	if mail == nil {
		return nil
	}
	_, err = tx.ExecContext(ctx, s.d.rebind(`INSERT INTO outbox (mail_from, mail_to, reply_to, subject, body, created_at, next_attempt_at)
		SELECT ?, ?, ?, ?, ?, ?, ? FROM auth_users WHERE id = ?`),
		mail.From, strings.Join(mail.To, "\n"), mail.ReplyTo, mail.Subject, mail.Body, s.d.timeArg(now), s.d.timeArg(now), who.key)
	return err
}

// pruneCodeFailures deletes the counts whose window ended before now.
func (s *DB) pruneCodeFailures(ctx context.Context, tx *sql.Tx, now time.Time) error {
	_, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM auth_code_failures WHERE failed_since <= ?`),
		s.d.timeArg(now.Add(-staff.FailureWindow)))
	return err
}

// clearCodeFailures deletes the user's count of wrong codes, and returns it.
func (s *DB) clearCodeFailures(ctx context.Context, tx *sql.Tx, userID string) (staff.Failures, error) {
	var f staff.Failures
	err := tx.QueryRowContext(ctx, s.d.rebind(`DELETE FROM auth_code_failures WHERE person = ? RETURNING failed_codes, failed_since`),
		userID).Scan(&f.Count, s.d.timeDest(&f.Since))
	return f, noRowsIsNil(err)
}

// UnlockCodes deletes the user's count of wrong codes, so that their codes
// work again at once ("studio staff unlock"), and returns the count it
// deleted (zero when there was none); audit is logged with it in its detail.
func (s *DB) UnlockCodes(ctx context.Context, userID string, audit staff.AuditEntry) (staff.Failures, error) {
	var f staff.Failures
	err := s.write(ctx, "unlock codes", func(ctx context.Context, tx *sql.Tx) error {
		var err error
		if f, err = s.clearCodeFailures(ctx, tx, userID); err != nil {
			return err
		}
		audit.Detail = fmt.Sprintf("cleared: %d wrong code(s)", f.Count)
		return s.audit(ctx, tx, audit)
	})
	return f, err
}
