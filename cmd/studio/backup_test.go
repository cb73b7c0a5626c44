package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"studio/internal/contact"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

// TestBackupUnderLoadAndRestore: a backup taken while messages are being
// written holds a consistent snapshot (every message it holds is whole and
// equal to the live one); restored into a new data directory it is a store
// the CLI and the server can open.
func TestBackupUnderLoadAndRestore(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	live := storetest.MustOpen(t, store.Config{DataDir: dir})
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

	var written atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				m := contact.Message{ID: fmt.Sprintf("w%d-%06d", w, i), ReceivedAt: at.Add(time.Duration(i) * time.Millisecond),
					Name: "Load", Email: "load@example.com", Message: strings.Repeat("x", 200)}
				if _, err := live.CreateContactMessage(ctx, m, nil); err != nil {
					t.Error(err)
					return
				}
				written.Add(1)
			}
		}()
	}
	for written.Load() < 200 {
		time.Sleep(time.Millisecond)
	}
	backup := filepath.Join(t.TempDir(), "studio-backup.db")
	var out, errOut bytes.Buffer
	if code := run(ctx, []string{"backup", "--data", dir, "--out", backup}, noEnv, &out, &errOut); code != 0 {
		t.Fatalf("backup = %d: %s", code, errOut.String())
	}
	atBackup := written.Load()
	close(stop)
	wg.Wait()
	if t.Failed() {
		return
	}

	// A second backup to the same file is refused, the first kept.
	if code := run(ctx, []string{"backup", "--data", dir, "--out", backup}, noEnv, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "exists") {
		t.Errorf("backup over an existing file = %d: %s", code, errOut.String())
	}

	restored := filepath.Join(t.TempDir(), "data")
	errOut.Reset()
	if code := run(ctx, []string{"restore", "--from", backup, "--data", restored}, noEnv, &out, &errOut); code != 0 {
		t.Fatalf("restore = %d: %s", code, errOut.String())
	}
	copyDB := storetest.MustOpen(t, store.Config{DataDir: restored})
	got, err := copyDB.ListContactMessages(ctx, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	all, err := live.ListContactMessages(ctx, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]contact.Message{}
	for _, m := range all {
		byID[m.ID] = m
	}
	if len(got) < 200 || int64(len(got)) > atBackup+4 || len(got) > len(all) {
		t.Errorf("backup holds %d messages; %d were written when it ended, %d in all", len(got), atBackup, len(all))
	}
	for _, m := range got {
		if diff := cmp.Diff(byID[m.ID], m); diff != "" {
			t.Fatalf("message %s differs from the live one (-live +backup):\n%s", m.ID, diff)
		}
	}
	// Per writer, the backup holds a prefix: a snapshot, not a sample.
	last := map[string]int{}
	count := map[string]int{}
	for _, m := range got {
		var w string
		var i int
		fmt.Sscanf(strings.Replace(m.ID, "-", " ", 1), "%s %d", &w, &i)
		last[w] = max(last[w], i)
		count[w]++
	}
	for w := range count {
		if count[w] != last[w]+1 {
			t.Errorf("writer %s: the backup holds %d messages up to number %d: not a snapshot", w, count[w], last[w])
		}
	}
}

// TestRestoreRefusals: a restore that would lose data or install something
// that is not a store changes nothing.
func TestRestoreRefusals(t *testing.T) {
	ctx := context.Background()
	dir := seed(t)
	backup := filepath.Join(t.TempDir(), "b.db")
	var out, errOut bytes.Buffer
	if code := run(ctx, []string{"backup", "--data", dir, "--out", backup}, noEnv, &out, &errOut); code != 0 {
		t.Fatalf("backup = %d: %s", code, errOut.String())
	}
	notAStore := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(notAStore, []byte("not a database"), 0o600); err != nil {
		t.Fatal(err)
	}
	target := t.TempDir()
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no --from", []string{"restore", "--data", target}, 2, "--from is required"},
		{"missing file", []string{"restore", "--from", filepath.Join(target, "nope.db"), "--data", target}, 1, "no such file"},
		{"not a database", []string{"restore", "--from", notAStore, "--data", target}, 1, "not a SQLite database"},
		{"over a store without --force", []string{"restore", "--from", backup, "--data", dir}, 1, "--force"},
		{"backup of PostgreSQL", []string{"backup", "--database-url", "postgres://x@127.0.0.1:1/db", "--out", backup + "2"}, 1, "pg_dump"},
		{"backup without --out", []string{"backup", "--data", dir}, 2, "--out is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errOut.Reset()
			if code := run(ctx, tt.args, noEnv, &out, &errOut); code != tt.code || !strings.Contains(errOut.String(), tt.want) {
				t.Errorf("code %d, stderr %q; want %d and %q", code, errOut.String(), tt.code, tt.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(target, store.SQLiteFile)); err == nil {
		t.Error("a refused restore left a store behind")
	}

	// With --force the old store is kept beside the restored one.
	if code := run(ctx, []string{"restore", "--from", backup, "--data", dir, "--force"}, noEnv, &out, &errOut); code != 0 {
		t.Fatalf("restore --force = %d: %s", code, errOut.String())
	}
	if _, err := os.Stat(filepath.Join(dir, store.SQLiteFile+".before-restore")); err != nil {
		t.Errorf("the replaced store was not kept: %v", err)
	}
}

// noEnv is an empty environment.
func noEnv(string) string { return "" }

// TestBackupFilesAreOwnerOnly: the backup and the store a restore makes
// hold every visitor's message and the sealed keys: mode 0600, whatever the
// umask lets a new file have.
func TestBackupFilesAreOwnerOnly(t *testing.T) {
	ctx := context.Background()
	dir := seed(t)
	backup := filepath.Join(t.TempDir(), "b.db")
	restored := filepath.Join(t.TempDir(), "data")
	var out, errOut bytes.Buffer
	for _, args := range [][]string{
		{"backup", "--data", dir, "--out", backup},
		{"restore", "--from", backup, "--data", restored},
	} {
		if code := run(ctx, args, noEnv, &out, &errOut); code != 0 {
			t.Fatalf("%s = %d: %s", args[0], code, errOut.String())
		}
	}
	for _, file := range []string{backup, filepath.Join(restored, store.SQLiteFile)} {
		info, err := os.Stat(file)
		if err != nil || info.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, %v; want 0600", file, info.Mode().Perm(), err)
		}
	}
}
