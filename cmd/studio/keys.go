package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"studio/internal/auth"
	"studio/internal/store"
)

var keysSealCommand = sealCommand(false)

var keysUnsealCommand = sealCommand(true)

// sealCommand is "keys seal", which seals with the secret key the signing
// keys and ACME keys that releases before --secret-key stored in clear, or,
// with unseal, "keys unseal", which stores them in clear again for such a
// release (a rollback). Neither makes a secret key: sealing with a key the
// servers lack would leave them unable to sign.
func sealCommand(unseal bool) command {
	c := command{
		name:    "keys seal",
		summary: "seal the signing and ACME keys stored in clear by an earlier release",
		description: "Seals with the secret key (--secret-key, else the key file in --data) every signing key and\n" +
			"ACME key that a release before --secret-key stored in clear. Run it once every server runs\n" +
			"this release: an earlier release cannot open sealed keys (docs/deploy.md).",
	}
	if unseal {
		c.name = "keys unseal"
		c.summary = "store the signing and ACME keys in clear again, to roll back to an earlier release"
		c.description = "Stores in clear again every sealed signing key and ACME key, so that a release before\n" +
			"--secret-key, which cannot open them, can serve the store (a rollback). Seal them again with\n" +
			"studio keys seal once every server runs this release again."
	}
	c.setup = func(fs *flag.FlagSet, env func(string) string) action {
		cfg := storeFlags(fs, env)
		secrets := secretKeyFlags(fs, env)
		return func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) error {
			if err := noArgs(fs, stderr); err != nil {
				return err
			}
			verb := "sealed"
			if unseal {
				verb = "stored in clear"
			}
			return withSecretKey(ctx, *cfg, *secrets, false, stderr, func(db *store.DB, key *auth.SecretKey) error {
				kids, err := auth.SealSigningKeys(ctx, db, key, unseal)
				for _, kid := range kids {
					fmt.Fprintf(stdout, "%s signing key %s\n", verb, kid)
				}
				if err != nil {
					return err
				}
				entries, err := sealACMECache(ctx, db, key, unseal)
				for _, e := range entries {
					fmt.Fprintf(stdout, "%s ACME cache entry %s\n", verb, e)
				}
				if err == nil && len(kids)+len(entries) == 0 {
					fmt.Fprintf(stdout, "nothing to change: every key is %s already\n", verb)
				}
				return err
			})
		}
	}
	return c
}

var keysDropUnreadableCommand = command{
	name:    "keys drop-unreadable",
	summary: "remove the signing and ACME keys sealed with a lost secret key",
	description: "Removes every signing key and ACME key that does not open with the secret key (--secret-key,\n" +
		"else the key file in --data): for a store whose secret key was lost. Access tokens they signed\n" +
		"stop working, sessions do not (the next refresh gets a token of a new key, which the servers make);\n" +
		"the certificates are asked of the ACME CA again. TOTP factors sealed with the lost key are reset\n" +
		"per person with studio staff reset-mfa. Run it with the key the servers now have.",
	setup: func(fs *flag.FlagSet, env func(string) string) action {
		cfg := storeFlags(fs, env)
		secrets := secretKeyFlags(fs, env)
		return func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) error {
			if err := noArgs(fs, stderr); err != nil {
				return err
			}
			return withSecretKey(ctx, *cfg, *secrets, false, stderr, func(db *store.DB, key *auth.SecretKey) error {
				kids, err := auth.DropUnreadableSigningKeys(ctx, db, key)
				for _, kid := range kids {
					fmt.Fprintf(stdout, "removed signing key %s\n", kid)
				}
				if err != nil {
					return err
				}
				entries, err := dropUnreadableACME(ctx, db, key)
				for _, e := range entries {
					fmt.Fprintf(stdout, "removed ACME cache entry %s\n", e)
				}
				if err == nil && len(kids)+len(entries) == 0 {
					fmt.Fprintf(stdout, "nothing to remove: every key opens with secret key %s\n", key.ID())
				}
				return err
			})
		}
	},
}

// withSecretKey loads the secret key of secrets, opens the store of cfg and
// calls f with both. With create (as serve does), a missing key file and
// store are made; without, a missing one is an error: a key made here would
// not be the servers' key.
func withSecretKey(ctx context.Context, cfg store.Config, secrets secretKeyConfig, create bool, stderr io.Writer,
	f func(*store.DB, *auth.SecretKey) error) error {
	key, err := secrets.load(cfg, cliLogger(stderr), create)
	if err != nil {
		return err
	}
	open := withStore
	if create {
		open = withNewStore
	}
	return open(ctx, cfg, func(db *store.DB) error { return f(db, key) })
}
