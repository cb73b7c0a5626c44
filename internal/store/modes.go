package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// The data directory and the store's files are readable by the server's
// user alone, whatever the umask: the store holds staff sessions, audit
// logs and visitors' messages, and its write-ahead log may hold pages the
// tables no longer show.

// Modes of the data directory and of the files in it.
const (
	DirMode  fs.FileMode = 0o700
	FileMode fs.FileMode = 0o600
)

// sqliteSuffixes name the SQLite file and the files SQLite keeps beside it.
var sqliteSuffixes = []string{"", "-wal", "-shm", "-journal"}

// privateFiles makes dir (DirMode) and SQLiteFile in it (FileMode) before
// SQLite opens it, and tightens what an earlier release made with the
// umask's modes: the directory and the SQLite files present. SQLite gives
// the -wal and -shm files it makes the mode of the database file, so they
// are FileMode too (TestStoreFileModes).
func privateFiles(dir string) error {
	if err := PrivateDir(dir); err != nil {
		return err
	}
	db := filepath.Join(dir, SQLiteFile)
	f, err := os.OpenFile(db, os.O_RDWR|os.O_CREATE, FileMode)
	if err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	for _, suffix := range sqliteSuffixes {
		if err := os.Chmod(db+suffix, FileMode); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("data directory: %w", err)
		}
	}
	return nil
}

// PrivateDir makes dir, and its missing parents, with DirMode, and gives
// dir that mode when it has another (an earlier release made it 0750, or
// the umask did).
func PrivateDir(dir string) error {
	if err := os.MkdirAll(dir, DirMode); err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	info, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	if info.Mode().Perm() != DirMode {
		if err := os.Chmod(dir, DirMode); err != nil {
			return fmt.Errorf("data directory %s is mode %04o and cannot be made %04o: %w", dir, info.Mode().Perm(), DirMode, err)
		}
	}
	return nil
}
