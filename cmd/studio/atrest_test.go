package main

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"io"
	"io/fs"
	"mime/quotedprintable"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"studio/internal/notify/smtptest"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

// TestSignInMailAtRest: a sign-in mail's code and token_hash sign in, so
// no copy of the store may hold them: after the mail is sent (and the link
// used), no byte sequence of either is in any file under --data (SQLite:
// studio.db, its -wal and -shm, read raw while the server runs and after it
// stops; and a studio backup), nor in a pg_dump of the PostgreSQL store.
// The mail is queued sealed with the secret key (docs/security.md).
func TestSignInMailAtRest(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		dir := t.TempDir()
		base, proc := serveForMail(t, dir, "")
		code, tokenHash := mailedSignIn(t, base, "", dir)
		wantAbsent(t, "--data while serving", filesUnder(t, dir), code, tokenHash)
		backup := filepath.Join(t.TempDir(), "studio.backup")
		if status, _, stderr := runCLI(t, nil, "backup", "--data", dir, "--out", backup); status != 0 {
			t.Fatalf("backup: %s", stderr)
		}
		wantAbsent(t, "the backup", filesUnder(t, backup), code, tokenHash)
		proc.stop(t)
		wantAbsent(t, "--data after the server stopped", filesUnder(t, dir), code, tokenHash)
	})
	t.Run("postgres", func(t *testing.T) {
		dsn := storetest.PostgresURL(t)
		dir := t.TempDir()
		base, _ := serveForMail(t, dir, dsn)
		code, tokenHash := mailedSignIn(t, base, dsn, dir)
		dumps, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_dump")
		if len(dumps) == 0 {
			t.Fatal("no pg_dump in /usr/lib/postgresql/*/bin")
		}
		sort.Strings(dumps)
		out, err := exec.Command(dumps[len(dumps)-1], "--no-owner", dsn).Output()
		if err != nil || !bytes.Contains(out, []byte("auth_one_time_codes")) {
			t.Fatalf("pg_dump: %v (%d bytes)", err, len(out))
		}
		wantAbsent(t, "--data", filesUnder(t, dir), code, tokenHash)
		wantAbsent(t, "", map[string][]byte{"pg_dump": out}, code, tokenHash)
		// A dump holds only the rows as they are now; the server's files
		// (its write-ahead log, the outbox's heap with its dead rows) hold
		// what they were, as SQLite's -wal does.
		wantAbsent(t, "PostgreSQL's files", postgresFiles(t, dsn), code, tokenHash)
	})
}

// postgresFiles reads, through the server (the tests connect as a
// superuser), its write-ahead log and the outbox table's file after a
// checkpoint.
func postgresFiles(t *testing.T, dsn string) map[string][]byte {
	t.Helper()
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CHECKPOINT`); err != nil {
		t.Fatal(err)
	}
	var heap string
	check(t, db.QueryRow(`SELECT pg_relation_filepath('outbox')`).Scan(&heap))
	files := map[string][]byte{}
	var b []byte
	check(t, db.QueryRow(`SELECT pg_read_binary_file($1)`, heap).Scan(&b))
	files[heap] = b
	// Other tests share this server: a checkpoint of theirs may recycle a
	// segment (rename it, bytes and all) between the listing and the read.
	// A segment gone is read under its new name at the next listing.
	for round := 0; ; round++ {
		rows, err := db.Query(`SELECT 'pg_wal/' || name FROM pg_ls_waldir() WHERE name ~ '^[0-9A-F]{24}$'`)
		check(t, err)
		var names []string
		for rows.Next() {
			var name string
			check(t, rows.Scan(&name))
			if _, read := files[name]; !read {
				names = append(names, name)
			}
		}
		check(t, rows.Err())
		if len(names) == 0 {
			return files
		}
		if round == 10 {
			t.Fatalf("the write-ahead log kept changing: %v still unread", names)
		}
		for _, name := range names {
			var b []byte // nil: gone since the listing (missing_ok; a segment is 16 MiB)
			check(t, db.QueryRow(`SELECT pg_read_binary_file($1, 0, 1 << 29, true)`, name).Scan(&b))
			if b != nil {
				files[name] = b
			}
		}
	}
}

// serveForMail starts serve on dir (and dsn when not empty) with a mail
// server, Ada as staff and the secret key given (kept out of --data).
func serveForMail(t *testing.T, dir, dsn string) (base string, p *studioProc) {
	t.Helper()
	env := func(k string) string {
		if k == "DATABASE_URL" {
			return dsn
		}
		return ""
	}
	if code, _, stderr := runCLI(t, env, "staff", "add", "ada@studio.test", "--data", dir); code != 0 {
		t.Fatal(stderr)
	}
	mail := smtptest.Start(t, 0)
	mailServers[dir] = mail
	t.Cleanup(func() { delete(mailServers, dir) })
	return startStudio(t, []string{"DATABASE_URL=" + dsn}, "--addr", "127.0.0.1:0", "--data", dir, "--secret-key", upgradeMFAKey,
		"--smtp-url", mail.URL(), "--notify-to", "team@studio.test", "--notify-from", "Studio <site@studio.test>")
}

// mailServers are the mail servers of serveForMail, by --data.
var mailServers = map[string]*smtptest.Server{}

// mailedSignIn asks for a magic link, waits until the outbox records it
// sent, signs in with its token_hash, and returns the mail's code and
// token_hash.
func mailedSignIn(t *testing.T, base, dsn, dir string) (code, tokenHash string) {
	t.Helper()
	mail := mailServers[dir]
	resp, err := http.Post(base+"/auth/v1/otp", "application/json", strings.NewReader(`{"email":"ada@studio.test"}`))
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("otp: %v %v", resp, err)
	}
	resp.Body.Close()
	select {
	case <-mail.Arrived:
	case <-time.After(15 * time.Second):
		t.Fatal("no sign-in mail arrived")
	}
	raw := strings.ReplaceAll(mail.Received()[0].Data, "\r\n", "\n")
	body, _ := io.ReadAll(quotedprintable.NewReader(strings.NewReader(raw[strings.Index(raw, "\n\n")+2:])))
	c := regexp.MustCompile(`\n    (\d{6})\n`).FindSubmatch(body)
	h := regexp.MustCompile(`token_hash=([A-Za-z0-9_-]+)&type=magiclink`).FindSubmatch(body)
	if c == nil || h == nil {
		t.Fatalf("the mail lacks a code or a link:\n%s", body)
	}
	code, tokenHash = string(c[1]), string(h[1])

	driver, source := "sqlite", filepath.Join(dir, store.SQLiteFile)
	if dsn != "" {
		driver, source = "pgx", dsn
	}
	db, err := sql.Open(driver, source)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var unsent int
		if err := db.QueryRow(`SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL`).Scan(&unsent); err == nil && unsent == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the outbox did not record the mail sent")
		}
	}

	resp, err = http.Post(base+"/auth/v1/verify", "application/json",
		strings.NewReader(`{"type":"magiclink","token_hash":"`+tokenHash+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var session map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&session)
	if resp.StatusCode != 200 || session["access_token"] == nil {
		t.Fatalf("verify with the mailed link = %d %v", resp.StatusCode, session)
	}
	return code, tokenHash
}

// filesUnder reads every file under root (a file or a directory), raw.
func filesUnder(t *testing.T, root string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if os.IsNotExist(err) {
			return nil // SQLite removed it meanwhile
		}
		files[path] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// wantAbsent fails the test for each of files that holds one of secrets.
func wantAbsent(t *testing.T, where string, files map[string][]byte, secrets ...string) {
	t.Helper()
	for name, b := range files {
		for _, s := range secrets {
			if i := bytes.Index(b, []byte(s)); i >= 0 {
				t.Errorf("%s: %s holds %q: …%q…", where, name, s, b[max(0, i-40):min(len(b), i+len(s)+40)])
			}
		}
	}
	if len(files) == 0 {
		t.Errorf("%s: no file read", where)
	}
}

// TestDataDirModes: with a umask of 022, serve makes --data 0700 and every
// file in it 0600 (the store, its -wal and -shm, the storage's blobs, the
// secret key); a --data an earlier release left 0755 with files 0644 is
// tightened at start.
func TestDataDirModes(t *testing.T) {
	old := syscall.Umask(0o022)
	t.Cleanup(func() { syscall.Umask(old) })
	dir := filepath.Join(t.TempDir(), "data")
	_, proc := startStudio(t, nil, "--addr", "127.0.0.1:0", "--data", dir) // seeds the downloads into storage/
	files := wantPrivateTree(t, dir)
	for _, want := range []string{store.SQLiteFile, store.SQLiteFile + "-wal", store.SQLiteFile + "-shm", "secret.key"} {
		if _, ok := files[want]; !ok {
			t.Errorf("--data lacks %s: its mode is not checked (files: %v)", want, files)
		}
	}
	if files["blobs"] == 0 {
		t.Error("no blob under storage/ (the seeded downloads): their mode is not checked")
	}
	proc.stop(t)

	// As an earlier release left it (while it ran: -wal and -shm there too).
	check(t, filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.Chmod(path, 0o755)
		}
		return os.Chmod(path, 0o644)
	}))
	startStudio(t, nil, "--addr", "127.0.0.1:0", "--data", dir)
	for name, want := range map[string]fs.FileMode{"": 0o700, store.SQLiteFile: 0o600, store.SQLiteFile + "-wal": 0o600, store.SQLiteFile + "-shm": 0o600} {
		info, err := os.Stat(filepath.Join(dir, name))
		check(t, err)
		if info.Mode().Perm() != want {
			t.Errorf("--data/%s of an earlier release: mode %04o, want %04o", name, info.Mode().Perm(), want)
		}
	}
}

// TestDataDirModesOnPostgres: on PostgreSQL, --data still holds the key
// file and the storage's blobs: a --data left 0755 is made 0700, its files
// 0600.
func TestDataDirModesOnPostgres(t *testing.T) {
	old := syscall.Umask(0o022)
	t.Cleanup(func() { syscall.Umask(old) })
	dir := t.TempDir()
	check(t, os.Chmod(dir, 0o755))
	startStudio(t, []string{"DATABASE_URL=" + storetest.PostgresURL(t)}, "--addr", "127.0.0.1:0", "--data", dir)
	files := wantPrivateTree(t, dir)
	if files["secret.key"] != 1 || files["blobs"] == 0 {
		t.Errorf("--data holds %v; want secret.key and blobs, whose modes are checked", files)
	}
}

// wantPrivateTree fails the test for each directory under dir (dir
// included) that is not 0700 and each file that is not 0600. It returns
// the names of the files at the top of dir, and the count of the others as
// "blobs".
func wantPrivateTree(t *testing.T, dir string) map[string]int {
	t.Helper()
	files := map[string]int{}
	check(t, filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		want := fs.FileMode(0o600)
		switch {
		case d.IsDir():
			want = 0o700
		case filepath.Dir(path) == dir:
			files[d.Name()]++
		default:
			files["blobs"]++
		}
		if info.Mode().Perm() != want {
			t.Errorf("%s: mode %04o, want %04o", path, info.Mode().Perm(), want)
		}
		return nil
	}))
	return files
}
