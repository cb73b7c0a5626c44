package main

import (
	"context"
	"time"

	"studio/internal/store"
)

var auditListCommand = listCommand(
	"audit list",
	"print the staff sign-in audit log",
	"Prints the audit log of staff sign-in, oldest first: staff added and removed, codes issued,\n"+
		"sign-ins, failed sign-ins, sign-outs, refresh tokens used again, and second factors\n"+
		"enrolled, verified, failed, locked out and removed.",
	func(ctx context.Context, db *store.DB) (table, error) {
		entries, err := db.ListAudit(ctx, time.Time{})
		t := table{header: []string{"at", "action", "email", "user_id", "session_id", "ip", "detail"}, records: nonNil(entries)}
		for _, e := range entries {
			t.rows = append(t.rows, []string{timeCell(e.At), e.Action, e.Email, e.UserID, e.SessionID, e.IP, e.Detail})
		}
		return t, err
	},
)
