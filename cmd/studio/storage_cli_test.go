package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"studio/internal/files"
	"studio/internal/storage"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

// TestStorageCommands: studio storage put, ls, get and rm on the store and
// the directory backend of --data, with the bucket's rules and clear
// refusals.
func TestStorageCommands(t *testing.T) {
	dir := t.TempDir()
	db := storetest.MustOpen(t, store.Config{DataDir: dir})
	limit := int64(8)
	now := time.Now()
	for _, b := range []files.Bucket{{ID: "docs", CreatedAt: now, UpdatedAt: now},
		{ID: "small", FileSizeLimit: &limit, AllowedMimeTypes: []string{"text/plain"}, CreatedAt: now, UpdatedAt: now}} {
		if err := db.CreateBucket(context.Background(), b); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	file := filepath.Join(t.TempDir(), "plan.md")
	if err := os.WriteFile(file, []byte("# The plan\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	studio := func(args ...string) (code int, stdout, stderr string) {
		var out, errOut bytes.Buffer
		args = append(append(args[:2:2], "--data", dir), args[2:]...) // flags before the arguments
		code = run(context.Background(), args, func(string) string { return "" }, &out, &errOut)
		return code, out.String(), errOut.String()
	}
	steps := []struct {
		name       string
		args       []string
		code       int
		out, error string
	}{
		{"put a file", []string{"storage", "put", "docs/2025/plan one.md", file}, 0, "stored docs/2025/plan one.md (11 bytes, text/markdown; charset=utf-8)", ""},
		{"a second put without --upsert", []string{"storage", "put", "docs/2025/plan one.md", file}, 1, "", "already exists"},
		{"a second put with --upsert", []string{"storage", "put", "--upsert", "docs/2025/plan one.md", file}, 0, "stored", ""},
		{"the buckets", []string{"storage", "ls"}, 0, "docs    false\nsmall   false", ""},
		{"the bucket's root", []string{"storage", "ls", "docs"}, 0, "2025/", ""},
		{"a folder", []string{"storage", "ls", "--format", "csv", "docs/2025"}, 0, "plan one.md,11,text/markdown; charset=utf-8,", ""},
		{"get to standard output", []string{"storage", "get", "docs/2025/plan one.md"}, 0, "# The plan\n", ""},
		{"a name with ..", []string{"storage", "put", "docs/../escape.md", file}, 1, "", "invalid object name"},
		{"over the bucket's limit", []string{"storage", "put", "--type", "text/plain", "small/big.txt", file}, 1, "", "larger than the bucket allows"},
		{"a type the bucket refuses", []string{"storage", "put", "small/plan.md", file}, 1, "", "does not allow files of this type"},
		{"no such bucket", []string{"storage", "put", "nope/x.md", file}, 1, "", "bucket not found"},
		{"remove", []string{"storage", "rm", "docs/2025/plan one.md"}, 0, "removed docs/2025/plan one.md", ""},
		{"remove what is not there", []string{"storage", "rm", "docs/2025/plan one.md"}, 1, "", "1 of 1 files were not there"},
		{"get what is not there", []string{"storage", "get", "docs/2025/plan one.md"}, 1, "", "object not found"},
		{"a path without a bucket", []string{"storage", "get", "docs"}, 1, "", "want BUCKET/PATH"},
	}
	for _, s := range steps {
		code, out, errOut := studio(s.args...)
		if code != s.code || !strings.Contains(out, s.out) || !strings.Contains(errOut, s.error) {
			t.Errorf("%s: studio %s = %d\nstdout %q (want it to hold %q)\nstderr %q (want it to hold %q)",
				s.name, strings.Join(s.args, " "), code, out, s.out, errOut, s.error)
		}
	}
}

// TestBackupHoldsTheFiles: studio backup copies the files of the directory
// backend beside the store's copy, and studio restore puts them back; with
// an S3 backend it says the provider backs them up.
func TestBackupHoldsTheFiles(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	contents := map[string]string{"deck.md": "# Deck\n", "models/plan.csv": "a,b\n1,2\n"}
	func() {
		db := storetest.MustOpen(t, store.Config{DataDir: dir})
		defer db.Close()
		blobs, err := openBackend(ctx, "", dir)
		if err != nil {
			t.Fatal(err)
		}
		svc := storage.New(db, blobs, nil, storage.Config{})
		if err := db.CreateBucket(ctx, files.Bucket{ID: "docs", CreatedAt: time.Now(), UpdatedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
		for name, body := range contents {
			if _, err := svc.PutFile(ctx, "docs", name, "text/plain", strings.NewReader(body), false); err != nil {
				t.Fatal(err)
			}
		}
	}()
	backup := filepath.Join(t.TempDir(), "studio.db")
	var out, errOut bytes.Buffer
	if code := run(ctx, []string{"backup", "--data", dir, "--out", backup}, noEnv, &out, &errOut); code != 0 ||
		!strings.Contains(out.String(), "and 2 files of /storage/v1 to "+backup+".storage") {
		t.Fatalf("backup = %d: %s%s", code, out.String(), errOut.String())
	}
	restored := filepath.Join(t.TempDir(), "data")
	out.Reset()
	if code := run(ctx, []string{"restore", "--from", backup, "--data", restored}, noEnv, &out, &errOut); code != 0 ||
		!strings.Contains(out.String(), "and 2 files of /storage/v1") {
		t.Fatalf("restore = %d: %s%s", code, out.String(), errOut.String())
	}
	for name, body := range contents {
		out.Reset()
		if code := run(ctx, []string{"storage", "get", "--data", restored, "docs/" + name}, noEnv, &out, &errOut); code != 0 || out.String() != body {
			t.Errorf("restored docs/%s = %d %q, want %q (%s)", name, code, out.String(), body, errOut.String())
		}
	}

	s3URL := os.Getenv("STUDIO_TEST_S3_URL")
	if s3URL == "" {
		t.Fatal("STUDIO_TEST_S3_URL is not set: run the tests with scripts/with-s3 (make test-go does)")
	}
	out.Reset()
	if code := run(ctx, []string{"backup", "--data", dir, "--storage-url", s3URL, "--out", backup + "2"}, noEnv, &out, &errOut); code != 0 ||
		!strings.Contains(out.String(), "back them up with the provider") {
		t.Errorf("backup with S3 = %d: %s%s", code, out.String(), errOut.String())
	}
	if _, err := os.Stat(backup + "2.storage"); !os.IsNotExist(err) {
		t.Errorf("a backup with S3 made %s.storage: %v", backup+"2", err)
	}
}
