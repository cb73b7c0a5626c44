package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"studio/internal/store"
)

var backupCommand = command{
	name:    "backup",
	summary: "copy the live SQLite store to a file",
	description: "Writes a consistent copy of the SQLite store in --data to --out while the server keeps running\n" +
		"(SQLite's VACUUM INTO). --out must not exist. For PostgreSQL use pg_dump.",
	setup: func(fs *flag.FlagSet, env func(string) string) action {
		cfg := storeFlags(fs, env)
		out := fs.String("out", "", "the backup file to write (required; must not exist)")
		return func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) error {
			if err := noArgs(fs, stderr); err != nil {
				return err
			}
			if *out == "" {
				fmt.Fprintln(stderr, "studio backup: --out is required")
				return errUsage
			}
			if cfg.DatabaseURL != "" {
				return store.ErrNotSQLite
			}
			return withStore(ctx, *cfg, func(db *store.DB) error {
				if err := db.Backup(ctx, *out); err != nil {
					return err
				}
				fmt.Fprintf(stdout, "backed up %s to %s\n", cfg.DataDir, *out)
				return nil
			})
		}
	},
}

var restoreCommand = command{
	name:    "restore",
	summary: "make a backup file the SQLite store (server stopped)",
	description: "Checks the backup (a store of this site that passes SQLite's integrity check) and makes it the\n" +
		"store of --data. Stop the server first. A store already in --data is replaced only with --force,\n" +
		"and is kept beside it as studio.db.before-restore.",
	setup: func(fs *flag.FlagSet, env func(string) string) action {
		cfg := storeFlags(fs, env)
		from := fs.String("from", "", "the backup file to restore (required)")
		force := fs.Bool("force", false, "replace the store already in --data")
		return func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) error {
			if err := noArgs(fs, stderr); err != nil {
				return err
			}
			if *from == "" {
				fmt.Fprintln(stderr, "studio restore: --from is required")
				return errUsage
			}
			if cfg.DatabaseURL != "" {
				return store.ErrNotSQLite
			}
			if err := store.Restore(ctx, *from, cfg.DataDir, *force); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "restored %s into %s\n", *from, cfg.DataDir)
			return nil
		}
	},
}
