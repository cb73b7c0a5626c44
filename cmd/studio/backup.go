package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"studio/internal/storage/disk"
	"studio/internal/store"
)

// storageBackup is the directory beside the backup file out that holds
// the files of /storage/v1 kept in --data.
func storageBackup(out string) string { return out + ".storage" }

// copyFiles copies the blobs of the directory backend in dataDir that the
// backup out lacks into storageBackup(out), and returns copied plus how
// many; nothing for an S3 backend.
func copyFiles(storageURL, dataDir, out string, copied int) (int, error) {
	if storageURL != "" {
		return copied, nil
	}
	blobs, err := disk.New(filepath.Join(dataDir, "storage"))
	if err != nil {
		return copied, err
	}
	n, err := blobs.CopyTo(storageBackup(out))
	if err != nil {
		return copied, fmt.Errorf("the files of /storage/v1: %w", err)
	}
	return copied + n, nil
}

var backupCommand = command{
	name:    "backup",
	summary: "copy the live SQLite store to a file",
	description: "Writes a consistent copy of the SQLite store in --data to --out while the server keeps running\n" +
		"(SQLite's VACUUM INTO), and the files of /storage/v1 kept in --data to the directory OUT.storage.\n" +
		"--out must not exist. For PostgreSQL use pg_dump; files on S3 are backed up by the provider.",
	setup: func(fs *flag.FlagSet, env func(string) string) action {
		cfg, storageURL := filesFlags(fs, env)
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
				// Blobs never change and each is written before the store
				// names it: copied before and after the store's copy, every
				// blob that copy names is there.
				if _, err := os.Lstat(*out); err == nil {
					return fmt.Errorf("backup: %s exists; choose a new file", *out)
				}
				files, err := copyFiles(*storageURL, cfg.DataDir, *out, 0)
				if err != nil {
					return err
				}
				if err := db.Backup(ctx, *out); err != nil {
					return err
				}
				if files, err = copyFiles(*storageURL, cfg.DataDir, *out, files); err != nil {
					return err
				}
				fmt.Fprintf(stdout, "backed up %s to %s\n", cfg.DataDir, *out)
				if *storageURL != "" {
					fmt.Fprintln(stdout, "the files of /storage/v1 are on S3 (--storage-url): back them up with the provider (bucket versioning, replication)")
				} else {
					fmt.Fprintf(stdout, "and %d files of /storage/v1 to %s\n", files, storageBackup(*out))
				}
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
			if _, err := os.Stat(storageBackup(*from)); err == nil {
				backup, err := disk.New(storageBackup(*from))
				if err != nil {
					return err
				}
				n, err := backup.CopyTo(filepath.Join(cfg.DataDir, "storage"))
				if err != nil {
					return fmt.Errorf("the files of /storage/v1: %w", err)
				}
				fmt.Fprintf(stdout, "and %d files of /storage/v1 from %s\n", n, storageBackup(*from))
			}
			return nil
		}
	},
}
