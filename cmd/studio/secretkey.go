package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"

	"studio/internal/secretkey"
	"studio/internal/store"
)

// secretKeyConfig is the secret key's flags: "studio serve" and the
// commands that read or write sealed values in the store take them.
type secretKeyConfig struct {
	key    string // --secret-key
	legacy string // --mfa-key, its former name
}

func secretKeyFlags(fs *flag.FlagSet, env func(string) string) *secretKeyConfig {
	var c secretKeyConfig
	envString(fs, &c.key, "secret-key", "STUDIO_SECRET_KEY", "", "32-byte key (base64 or hex: openssl rand -base64 32) that seals the secrets in the store: TOTP secrets, signing keys, ACME keys; "+
		"keep it outside --data and its backups. Empty: "+secretkey.SecretKeyFile+" in --data (else "+secretkey.LegacyKeyFile+" that earlier releases made), made on first start. "+
		"Several servers on one PostgreSQL must be given the same key", env)
	envString(fs, &c.legacy, "mfa-key", "STUDIO_MFA_KEY", "", "former name of --secret-key, still read when --secret-key is empty", env)
	return &c
}

// load returns the secret key: --secret-key, else --mfa-key, else the key
// file in --data, made there when missing if create. logger, when not nil,
// hears of a key file made, and of one used with PostgreSQL. db, when not
// nil, is the store: no key file is made beside one whose secrets are
// sealed already (a *auth.KeyMismatchError then names their key); a store
// that cannot be read (PostgreSQL down as a server starts) does not stop
// the key being made, and the server checks it once it can
// (auth.CheckSecretKey).
func (c secretKeyConfig) load(ctx context.Context, st store.Config, db secretkey.KeyCheckStore, logger *slog.Logger, create bool) (*secretkey.SecretKey, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if c.key != "" || c.legacy != "" {
		return c.fromFlags()
	}
	k, path, err := secretkey.LoadSecretKey(st.DataDir)
	if errors.Is(err, os.ErrNotExist) && db != nil {
		ids, serr := secretkey.StoreKeyIDs(ctx, db)
		if serr == nil && len(ids) > 0 {
			return nil, &secretkey.KeyMismatchError{Store: ids,
				Looked: fmt.Sprintf("no %s or %s in %s", secretkey.SecretKeyFile, secretkey.LegacyKeyFile, st.DataDir)}
		}
		if serr != nil {
			logger.Warn("cannot read the store to see whether its secrets are sealed already", "err", serr)
		}
	}
	var created bool
	if create && errors.Is(err, os.ErrNotExist) {
		k, path, created, err = secretkey.LoadOrCreateSecretKey(st.DataDir)
	}
	if err != nil {
		return nil, fmt.Errorf("secret key in --data: %w", err)
	}
	if created {
		logger.Info("made the secret key that seals the secrets in the store; keep a copy outside --data and its backups", "file", path)
	}
	if st.DatabaseURL != "" {
		logger.Warn("the secret key is a file in --data: every server on this PostgreSQL needs the same one (--secret-key)", "file", path)
	}
	return k, nil
}

// fromFlags is --secret-key, else --mfa-key; both may be given only with
// the same key.
func (c secretKeyConfig) fromFlags() (*secretkey.SecretKey, error) {
	var key, legacy *secretkey.SecretKey
	var err error
	if c.key != "" {
		if key, err = parseKeyFlag("--secret-key", c.key); err != nil {
			return nil, err
		}
	}
	if c.legacy != "" {
		if legacy, err = parseKeyFlag("--mfa-key", c.legacy); err != nil {
			return nil, err
		}
	}
	switch {
	case key == nil:
		return legacy, nil
	case legacy != nil && legacy.ID() != key.ID():
		return nil, errors.New("--secret-key and --mfa-key (its former name) differ: give one of them")
	}
	return key, nil
}

func parseKeyFlag(name, value string) (*secretkey.SecretKey, error) {
	k, err := secretkey.ParseSecretKey(value)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return k, nil
}

// cliLogger reports what loading the secret key did to a command's stderr.
func cliLogger(stderr io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
}
