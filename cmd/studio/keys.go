package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"studio/internal/auth"
	"studio/internal/secretkey"
	"studio/internal/store"
)

// The keys commands manage the ES256 signing keys in the store and their
// sealing with the secret key (package auth).

var keysPrintAnonCommand = keysCommand("keys print-anon",
	"print the public key the Supabase client is created with",
	"Prints the anon key: createClient(siteOrigin, anonKey) in @supabase/supabase-js.\n"+
		"It is public and grants nothing beyond what a visitor may do. Creates the\n"+
		"signing key in the store when there is none yet.",
	createKey,
	func(ctx context.Context, db *store.DB, key *secretkey.SecretKey, stdout io.Writer) error {
		keys, err := auth.LoadKeys(ctx, db, key, time.Now())
		if err != nil {
			return err
		}
		anon, err := keys.AnonKey()
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, anon)
		return nil
	})

var keysRotateCommand = command{
	name:    "keys rotate",
	summary: "add a new signing key and retire old ones",
	description: "Adds a new ES256 signing key to the store. Every server signs with it within 5 minutes\n" +
		"(when it next reads the keys); the old keys stay in the JWKS until the tokens they signed\n" +
		"have expired, and a later rotation removes them. The anon key changes too (print it again);\n" +
		"the old one keeps working, as the service does not require it.",
	setup: func(fs *flag.FlagSet, env func(string) string) action {
		cfg := storeFlags(fs, env)
		secrets := secretKeyFlags(fs, env)
		var expiry string
		envString(fs, &expiry, "jwt-expiry", "STUDIO_JWT_EXPIRY", "1h", "lifetime of access tokens, as the servers' --jwt-expiry", env)
		return func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) error {
			if err := noArgs(fs, stderr); err != nil {
				return err
			}
			d, err := time.ParseDuration(expiry)
			if err != nil || d < time.Minute {
				return fmt.Errorf("--jwt-expiry %q: want a duration of at least 1m, like 1h", expiry)
			}
			return withSecretKey(ctx, *cfg, *secrets, true, stderr, func(db *store.DB, key *secretkey.SecretKey) error {
				if _, err := auth.LoadKeys(ctx, db, key, time.Now()); err != nil { // the first key, if none yet
					return err
				}
				added, removed, err := auth.RotateKeys(ctx, db, key, time.Now(), d)
				if err != nil {
					return err
				}
				fmt.Fprintf(stdout, "added signing key %s\n", added)
				for _, kid := range removed {
					fmt.Fprintf(stdout, "removed signing key %s\n", kid)
				}
				return nil
			})
		}
	},
}

var keysSealCommand = sealCommand(false)

var keysUnsealCommand = sealCommand(true)

// sealCommand is "keys seal", which seals with the secret key the signing
// keys and ACME keys that releases before --secret-key stored in clear, or,
// with unseal, "keys unseal", which stores them in clear again for such a
// release (a rollback). Neither makes a secret key: sealing with a key the
// servers lack would leave them unable to sign.
func sealCommand(unseal bool) command {
	name, summary, description, verb := "keys seal",
		"seal the signing and ACME keys stored in clear by an earlier release",
		"Seals with the secret key (--secret-key, else the key file in --data) every signing key and\n"+
			"ACME key that a release before --secret-key stored in clear. Run it once every server runs\n"+
			"this release: an earlier release cannot open sealed keys (docs/deploy.md).",
		"sealed"
	if unseal {
		name, summary, description, verb = "keys unseal",
			"store the signing and ACME keys in clear again, to roll back to an earlier release",
			"Stores in clear again every sealed signing key and ACME key, so that a release before\n"+
				"--secret-key, which cannot open them, can serve the store (a rollback). Seal them again with\n"+
				"studio keys seal once every server runs this release again.",
			"stored in clear"
	}
	return keysCommand(name, summary, description, readKey,
		func(ctx context.Context, db *store.DB, key *secretkey.SecretKey, stdout io.Writer) error {
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

var keysDropUnreadableCommand = keysCommand("keys drop-unreadable",
	"remove the signing and ACME keys sealed with a lost secret key",
	"Removes every signing key and ACME key that does not open with the secret key (--secret-key,\n"+
		"else the key file in --data): for a store whose secret key was lost. Access tokens they signed\n"+
		"stop working, sessions do not (the next refresh gets a token of a new key, which the servers make);\n"+
		"the certificates are asked of the ACME CA again. TOTP factors sealed with the lost key are reset\n"+
		"per person with studio staff reset-mfa. Run it with the key the servers now have: it becomes the\n"+
		"store's secret key, and a server or command given another one refuses to seal anything.",
	claimKey,
	func(ctx context.Context, db *store.DB, key *secretkey.SecretKey, stdout io.Writer) error {
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
		if err != nil {
			return err
		}
		if len(kids)+len(entries) == 0 {
			fmt.Fprintf(stdout, "nothing to remove: every key opens with secret key %s\n", key.ID())
		}
		return secretkey.ClaimSecretKey(ctx, db, key)
	})

// keyMode is how a keys command takes the secret key.
type keyMode int

const (
	readKey   keyMode = iota // the key given or in --data; the store's (withSecretKey)
	createKey                // the same, made in --data when there is none and the store has no secrets
	claimKey                 // the key given or in --data, made the store's whatever it was
)

// keysCommand is a command without flags of its own that works on the
// store with the secret key (withSecretKey).
func keysCommand(name, summary, description string, mode keyMode,
	run func(ctx context.Context, db *store.DB, key *secretkey.SecretKey, stdout io.Writer) error) command {
	return command{name: name, summary: summary, description: description,
		setup: func(fs *flag.FlagSet, env func(string) string) action {
			cfg := storeFlags(fs, env)
			secrets := secretKeyFlags(fs, env)
			return func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) error {
				if err := noArgs(fs, stderr); err != nil {
					return err
				}
				return withKey(ctx, *cfg, *secrets, mode == createKey, mode != claimKey, stderr, func(db *store.DB, key *secretkey.SecretKey) error {
					return run(ctx, db, key, stdout)
				})
			}
		},
	}
}

// withSecretKey opens the store of cfg, loads the secret key of secrets
// and calls f with both. With create (as serve does), a missing store and
// key file are made, but no key file beside a store whose secrets are
// sealed already; without, a missing one is an error: a key made here
// would not be the servers' key. A key that is not the one the store's
// secrets are sealed with is refused before f runs (auth.CheckSecretKey):
// it would seal what no server can open.
func withSecretKey(ctx context.Context, cfg store.Config, secrets secretKeyConfig, create bool, stderr io.Writer,
	f func(*store.DB, *secretkey.SecretKey) error) error {
	return withKey(ctx, cfg, secrets, create, true, stderr, f)
}

// withKey is withSecretKey; without check, the key is not compared with
// the store's (keys drop-unreadable, which makes it the store's).
func withKey(ctx context.Context, cfg store.Config, secrets secretKeyConfig, create, check bool, stderr io.Writer,
	f func(*store.DB, *secretkey.SecretKey) error) error {
	open := withStore
	if create {
		open = withNewStore
	}
	return open(ctx, cfg, func(db *store.DB) error {
		key, err := secrets.load(ctx, cfg, db, cliLogger(stderr), create)
		if err != nil {
			return err
		}
		if check {
			if err := secretkey.CheckSecretKey(ctx, db, key); err != nil {
				return err
			}
		}
		return f(db, key)
	})
}
