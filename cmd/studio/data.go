package main

import (
	"fmt"
	"os"
	"path/filepath"

	"studio/internal/store"
)

// mkdirData makes the data directory, or tightens the one an earlier
// release made: readable by this user alone (store.PrivateDir).
func mkdirData(dir string) error { return store.PrivateDir(dir) }

// requireData reports a data directory without a store, so that a typo in
// --data does not look like an empty list (and does not create a store).
func requireData(dir string) error {
	if _, err := os.Stat(filepath.Join(dir, store.SQLiteFile)); err != nil {
		return fmt.Errorf("no store in %s (set --data or DATABASE_URL): %w", dir, err)
	}
	return nil
}
