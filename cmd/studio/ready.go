package main

import (
	"context"
	"errors"

	"studio/internal/server"
	"studio/internal/store"
)

// errNotListening is /readyz's word for a change feed that is down.
var errNotListening = errors.New("not listening for other servers' changes")

// readyChecks are what /readyz asks: that the store answers (within
// /readyz's deadline) and, on PostgreSQL, that the change feed listens, so
// that the consoles served here see every server's changes.
func readyChecks(db *store.DB) []server.ReadyCheck {
	return []server.ReadyCheck{
		{Name: "store", Check: db.Ping},
		{Name: "changefeed", Check: func(context.Context) error {
			if !db.Following() {
				return errNotListening
			}
			return nil
		}},
	}
}
