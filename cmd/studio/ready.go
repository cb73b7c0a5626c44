package main

import (
	"context"
	"errors"

	"studio/internal/auth"
	"studio/internal/secretkey"
	"studio/internal/server"
	"studio/internal/site"
	"studio/internal/store"
)

// /readyz's words for a part that is down. Anyone may ask /readyz, so the
// store's own error (which may name its host, port or files) is not among
// them: the store logs its outages itself.
var (
	errCannotCommit = errors.New("cannot commit to the store")
	errNotListening = errors.New("not listening for other servers' changes")
	errCannotSign   = errors.New("cannot read the signing keys")
	errSiteStarting = errors.New("compressing the pages rewritten for the site URL")
)

// readyChecks are what /readyz asks: that this server can commit to the
// store (a probe commit within /readyz's deadline, which also closes the
// store's breaker once the store is back: an idle server recovers without
// visitors) and, on PostgreSQL, that the change feed listens, so
// that the consoles served here see every server's changes; and that it can
// sign staff sign-ins: a signing key opens with its secret key (else the
// answer names the keys, the secret keys they are sealed with, and how to
// give the right one: none is secret); and that the site is ready, its
// pages rewritten for the site URL compressed (else its requests wait).
func readyChecks(db *store.DB, signer *auth.Service, pages *site.Site) []server.ReadyCheck {
	return []server.ReadyCheck{
		{Name: "site", Check: func(context.Context) error {
			select {
			case <-pages.Ready():
				return nil
			default:
				return errSiteStarting
			}
		}},
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
		{Name: "signing_keys", Check: func(ctx context.Context) error {
			err := signer.SigningKeysReady(ctx)
			var none *auth.NoSigningKeyError
			switch {
			case err == nil:
				return nil
			case errors.As(err, &none):
				return none
			case secretkey.IsKeyMismatch(err):
				return err
			}
			return errCannotSign
		}},
	}
}
