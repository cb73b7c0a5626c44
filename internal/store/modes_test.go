package store_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"studio/internal/store"
	"studio/internal/store/storetest"
)

// withUmask runs the rest of the test with the process's umask set to mask
// (022: as when run by hand or in the shipped container).
func withUmask(t *testing.T, mask int) {
	old := syscall.Umask(mask)
	t.Cleanup(func() { syscall.Umask(old) })
}

// wantPrivate fails the test for each directory under dir (dir included)
// that is not store.DirMode and each file that is not store.FileMode; it
// returns the names of the files.
func wantPrivate(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		want := store.FileMode
		if d.IsDir() {
			want = store.DirMode
		} else {
			files = append(files, d.Name())
		}
		if info.Mode().Perm() != want {
			t.Errorf("%s: mode %04o, want %04o", path, info.Mode().Perm(), want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestStoreFileModes: with a umask of 022, the data directory the store
// makes is 0700 and studio.db, studio.db-wal and studio.db-shm are 0600;
// a data directory an earlier release left readable by others (0755, its
// files 0644) is tightened when the store opens it.
func TestStoreFileModes(t *testing.T) {
	withUmask(t, 0o022)
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "data")
	db := storetest.MustOpen(t, store.Config{DataDir: dir})
	if _, err := db.CreateContactMessage(ctx, message("m1", t0), &email); err != nil {
		t.Fatal(err)
	}
	files := wantPrivate(t, dir)
	for _, name := range []string{store.SQLiteFile, store.SQLiteFile + "-wal", store.SQLiteFile + "-shm"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s is missing (files: %v): the test does not see the mode SQLite gives it", name, files)
		}
	}

	// An earlier release's data directory, left as the umask made it, while
	// that release runs (its -wal and -shm are there).
	check := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	check(os.Chmod(dir, 0o755))
	for _, name := range files {
		check(os.Chmod(filepath.Join(dir, name), 0o644))
	}
	again := storetest.MustOpen(t, store.Config{DataDir: dir})
	if _, err := again.CreateContactMessage(ctx, message("m2", t0), &email); err != nil {
		t.Fatal(err)
	}
	wantPrivate(t, dir)
}
