package store

import (
	"context"
	"database/sql"
	"studio/internal/staff"
	"time"
)

// The audit log of the staff sign-in (package auth). Every entry is written
// in the transaction of what it records.

// audit adds e to the audit log; nothing when e has no action.
func (s *DB) audit(ctx context.Context, tx *sql.Tx, e staff.AuditEntry) error {
	if e.Action == "" {
		return nil
	}
	_, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO auth_audit_log (at, action, email, user_id, session_id, ip, detail)
		VALUES (?, ?, ?, ?, ?, ?, ?)`), s.d.timeArg(e.At), e.Action, e.Email, e.UserID, e.SessionID, e.IP, e.Detail)
	return err
}

// ListAudit returns the audit log from since on, oldest first.
func (s *DB) ListAudit(ctx context.Context, since time.Time) ([]staff.AuditEntry, error) {
	var out []staff.AuditEntry
	err := s.query(ctx, "list audit log", `SELECT at, action, email, user_id, session_id, ip, detail
		FROM auth_audit_log WHERE at >= ? ORDER BY at, id`, []any{s.d.timeArg(since)}, func(rows *sql.Rows) error {
		var e staff.AuditEntry
		if err := rows.Scan(s.d.timeDest(&e.At), &e.Action, &e.Email, &e.UserID, &e.SessionID, &e.IP, &e.Detail); err != nil {
			return err
		}
		out = append(out, e)
		return nil
	})
	return out, err
}
