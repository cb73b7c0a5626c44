package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// ErrNotSQLite is returned by Backup on a PostgreSQL store: back it up with
// pg_dump.
var ErrNotSQLite = errors.New("backup and restore are for the SQLite store; back PostgreSQL up with pg_dump")

// Backup writes a consistent copy of the live SQLite store to file (which
// must not exist yet) while the server goes on reading and writing: VACUUM
// INTO reads one snapshot of the database in a single transaction. The copy
// is written beside file and renamed into place, so file is either the
// whole copy or absent. Only its owner may read it (mode 0600).
func (s *DB) Backup(ctx context.Context, file string) error {
	if s.d.name != "sqlite" {
		return ErrNotSQLite
	}
	if _, err := os.Lstat(file); err == nil {
		return fmt.Errorf("backup: %s exists; choose a new file", file)
	}
	tmp := file + ".partial"
	_ = os.Remove(tmp)
	// VACUUM INTO fills an empty file as it finds it: made here, it is the
	// owner's alone (0600) from the start, whatever the umask.
	if err := createPrivate(tmp); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, "VACUUM INTO ?", tmp); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("backup: %w", err)
	}
	if err := syncFile(tmp); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	if err := os.Rename(tmp, file); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	return syncDir(filepath.Dir(file))
}

// Restore makes the backup file the SQLite store of dataDir. The server must
// not be running on dataDir. A store already there is kept beside it as
// studio.db.before-restore, and is refused when force is false. The backup
// is checked first (a SQLite file of this site that passes integrity_check)
// and copied under a temporary name, so a failed restore changes nothing;
// the store it makes is its owner's alone (mode 0600).
func Restore(ctx context.Context, file, dataDir string, force bool) error {
	if err := checkBackup(ctx, file); err != nil {
		return err
	}
	if err := PrivateDir(dataDir); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	target := filepath.Join(dataDir, SQLiteFile)
	if _, err := os.Stat(target); err == nil {
		if !force {
			return fmt.Errorf("restore: %s already holds a store; stop the server and pass --force to replace it (it is kept as %s.before-restore)", dataDir, SQLiteFile)
		}
		// Fold the old store's write-ahead log into it before keeping it.
		if err := checkpoint(ctx, target); err != nil {
			return fmt.Errorf("restore: the store in %s: %w", dataDir, err)
		}
		if err := os.Rename(target, target+".before-restore"); err != nil {
			return fmt.Errorf("restore: %w", err)
		}
	}
	// The old store's WAL and shared-memory files must not meet the new file.
	for _, suffix := range []string{"-wal", "-shm"} {
		if err := os.Remove(target + suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("restore: %w", err)
		}
	}
	tmp := target + ".restoring"
	if err := copyFile(file, tmp); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	if err := os.Rename(tmp, target); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	return syncDir(dataDir)
}

// checkBackup opens file read-only and checks that it is a sound store of
// this site.
func checkBackup(ctx context.Context, file string) error {
	if _, err := os.Stat(file); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	db, err := sql.Open("sqlite", "file:"+file+"?mode=ro")
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	defer db.Close()
	var result string
	if err := db.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&result); err != nil {
		return fmt.Errorf("restore: %s is not a SQLite database: %w", file, err)
	}
	if result != "ok" {
		return fmt.Errorf("restore: %s fails SQLite's integrity check: %s", file, result)
	}
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM schema_migrations").Scan(&n); err != nil || n == 0 {
		return fmt.Errorf("restore: %s is not a store of this site (no schema_migrations)", file)
	}
	return nil
}

func checkpoint(ctx context.Context, file string) error {
	db, err := sql.Open("sqlite", "file:"+file)
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
	return err
}

func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	_ = os.Remove(to) // a file left by a failed restore, whatever its mode
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	if err := dst.Sync(); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

// createPrivate makes the empty file name, readable and writable by its
// owner alone.
func createPrivate(name string) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	return f.Close()
}

func syncFile(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
