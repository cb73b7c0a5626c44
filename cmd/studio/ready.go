package main

import (
	"context"
	"errors"

	"studio/internal/server"
	"studio/internal/store"
)

// /readyz's words for a part that is down. Anyone may ask /readyz, so the
// store's own error (which may name its host, port or files) is not among
// them: the store logs its outages itself.
var (
	errCannotCommit = errors.New("cannot commit to the store")
	errNotListening = errors.New("not listening for other servers' changes")
)

// readyChecks are what /readyz asks: that this server can commit to the
// store (a probe commit within /readyz's deadline, which also closes the
// store's breaker once the store is back: an idle server recovers without
// visitors) and, on PostgreSQL, that the change feed listens, so
// that the consoles served here see every server's changes.
func readyChecks(db *store.DB) []server.ReadyCheck {
	return []server.ReadyCheck{
		{Name: "store", Check: func(ctx context.Context) error {
			if db.ProbeCommit(ctx) != nil {
				return errCannotCommit
			}
			return nil
		}},
		{Name: "changefeed", Check: func(context.Context) error {
			if !db.Following() {
				return errNotListening
			}
			return nil
		}},
	}
}
