package main

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"studio/internal/notify/smtptest"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

// envPreviousBinary names the previous release's binary: make test-go builds
// it with scripts/build-previous-release (the commit in deploy/previous-release).
const envPreviousBinary = "STUDIO_PREVIOUS_BINARY"

// upgradeMFAKey is given to every instance: those on one store must share it.
const upgradeMFAKey = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"

const upgradeStaff = "ada@studio.test"

// TestRollingUpgrade: the previous release and this one on the same store,
// as docs/deploy.md ("Upgrading one instance at a time") tells an operator
// to upgrade. On PostgreSQL both run at once; on SQLite one replaces the
// other in the same --data.
func TestRollingUpgrade(t *testing.T) {
	previous := os.Getenv(envPreviousBinary)
	if previous == "" {
		t.Fatalf("%s is not set: run the Go tests with make test-go, which builds the previous release (scripts/build-previous-release) and passes its path", envPreviousBinary)
	}
	if info, err := os.Stat(previous); err != nil || info.IsDir() {
		t.Fatalf("%s=%s is not a binary: %v", envPreviousBinary, previous, err)
	}
	t.Run("postgres", func(t *testing.T) { testRollingUpgrade(t, previous) })
	t.Run("sqlite", func(t *testing.T) { testUpgradeInPlace(t, previous) })
}

// testRollingUpgrade: the previous release serves a fresh PostgreSQL; this
// release starts beside it and migrates the schema; both then serve the same
// data and sessions; and the previous release, restarted on the newer
// schema, serves again.
func testRollingUpgrade(t *testing.T, previous string) {
	dsn := storetest.PostgresURL(t)
	st := &upgradeStore{engine: "postgres", driver: "pgx", dsn: dsn,
		env: []string{"DATABASE_URL=" + dsn}, storeArgs: []string{"--data", t.TempDir()}}
	want := map[string]string{} // every message stored: text → id
	sent := func(s instance, text string) { want[text] = s.submitContact(t, text, "") }

	old, oldProc := st.serve(t, previous, "previous release")
	oldSchema := st.appliedMigrations(t)
	sent(old, "to the previous release, before the upgrade")
	old.subscribe(t, "before@example.com")
	st.cli(t, previous, "staff", "add", upgradeStaff)
	tokenBefore := old.signIn(t, st, previous)

	cur, _ := st.serve(t, binary, "this release")
	allMigrations := migrationFiles(t, st.engine)
	if got := st.appliedMigrations(t); !slices.Equal(got, allMigrations) {
		t.Fatalf("after this release started: migrations %v applied, want %v", got, allMigrations)
	}
	t.Logf("migrations applied by the previous release: %v; after this release started: %v", oldSchema, allMigrations)

	sent(old, "to the previous release, mid-upgrade")
	sent(cur, "to this release, mid-upgrade")
	old.subscribe(t, "during-old@example.com")
	cur.subscribe(t, "during-new@example.com")
	tokenOld := old.signIn(t, st, previous)
	tokenNew := cur.signIn(t, st, binary)
	for _, s := range []instance{old, cur} {
		for _, token := range []string{tokenBefore, tokenOld, tokenNew} {
			s.wantUser(t, token)
		}
		wantMessages(t, s.name+": /rest/v1/contact_messages", s.restMessages(t, tokenBefore), want)
	}

	first := cur.submitContact(t, "with an Idempotency-Key", "upgrade-key-1")
	if again := cur.submitContact(t, "with an Idempotency-Key", "upgrade-key-1"); again != first {
		t.Errorf("the repeated request got id %s, the first %s", again, first)
	}
	want["with an Idempotency-Key"] = first

	cur.signOut(t, tokenOld)
	old.wantSignedOut(t, tokenOld)
	old.wantUser(t, tokenNew)

	wantMessages(t, "messages list", listMessages(t, st.env, st.storeArgs...), want)
	wantSubscribers(t, st, "before@example.com", "during-old@example.com", "during-new@example.com")

	// An instance of the previous release that restarts mid-upgrade (or a
	// rollback) finds migrations it does not know in schema_migrations. Its
	// migrate looks up only the versions it embeds, each by number, so the
	// newer rows are left alone and it starts; the store's
	// TestOpenToleratesNewerMigrations keeps this release behaving so too.
	oldProc.stop(t)
	old, _ = st.serve(t, previous, "previous release, restarted")
	sent(old, "to the previous release, restarted on the newer schema")
	if got := st.appliedMigrations(t); !slices.Equal(got, allMigrations) {
		t.Errorf("after the previous release restarted: migrations %v, want %v", got, allMigrations)
	}
	old.wantUser(t, tokenNew)
	for _, s := range []instance{old, cur} {
		wantMessages(t, s.name+": /rest/v1/contact_messages at the end", s.restMessages(t, tokenNew), want)
	}

	testSealedMailAndThePreviousRelease(t, st, previous)
}

// testSealedMailAndThePreviousRelease: a sign-in mail this release queues
// is sealed; the previous release's sender, on the same PostgreSQL, never
// sends it (it would send an empty body), while it goes on sending the
// notifications it can (decision 0021). This release's mail server refuses
// everything here, so only the previous release could send either.
func testSealedMailAndThePreviousRelease(t *testing.T, st *upgradeStore, previous string) {
	refusing, accepting := smtptest.Start(t, 1<<30), smtptest.Start(t, 0)
	args := func(mail *smtptest.Server) []string {
		return []string{"--addr", "127.0.0.1:0", "--rate-limit", "off", "--auth-rate-limit", "off", "--mfa-key", upgradeMFAKey,
			"--data", t.TempDir(), "--smtp-url", mail.URL(), "--notify-to", "team@studio.test", "--notify-from", "site@studio.test"}
	}
	curBase, _ := startBinary(t, binary, st.env, args(refusing)...)
	oldBase, _ := startBinary(t, previous, st.env, args(accepting)...)
	cur := instance{name: "this release, mailing", base: curBase, anonKey: st.anonKey}
	old := instance{name: "previous release, mailing", base: oldBase, anonKey: st.anonKey}

	if status, answer := cur.call(t, "POST", "/auth/v1/otp", `{"email":"`+upgradeStaff+`"}`); status != http.StatusOK {
		t.Fatalf("%s: otp = %d %s", cur.name, status, answer)
	}
	db, err := sql.Open(st.driver, st.dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var sealed int
		if db.QueryRow(`SELECT COUNT(*) FROM outbox WHERE sealed_body <> '' AND sent_at IS NULL`).Scan(&sealed) == nil && sealed == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no sealed sign-in mail in the outbox")
		}
	}
	// Queued after the sign-in mail (the previous release's sender is woken
	// at once): once it has sent it, it has looked at the outbox with the
	// sign-in mail due.
	old.submitContact(t, "notified by the previous release", "")
	select {
	case <-accepting.Arrived:
	case <-time.After(30 * time.Second):
		t.Fatal("the previous release sent no notification")
	}
	time.Sleep(6 * time.Second) // one more poll of the previous release's sender
	for _, m := range accepting.Received() {
		if !strings.Contains(m.Data, "notified by the previous release") {
			t.Errorf("the previous release sent a mail other than the notification:\n%s", m.Data)
		}
	}
	if n := len(accepting.Received()); n != 1 {
		t.Errorf("the previous release sent %d mails, want the notification alone", n)
	}
}

// testUpgradeInPlace: SQLite has one instance per file, so the previous
// release is stopped and this one started on the same --data; everything,
// sessions included, carries over. Then the rollback: the previous release
// starts again on the newer schema.
func testUpgradeInPlace(t *testing.T, previous string) {
	dir := t.TempDir()
	st := &upgradeStore{engine: "sqlite", driver: "sqlite", dsn: filepath.Join(dir, store.SQLiteFile),
		storeArgs: []string{"--data", dir}}
	want := map[string]string{}

	old, oldProc := st.serve(t, previous, "previous release")
	want["to the previous release"] = old.submitContact(t, "to the previous release", "")
	old.subscribe(t, "before@example.com")
	st.cli(t, previous, "staff", "add", upgradeStaff)
	token := old.signIn(t, st, previous)
	oldProc.stop(t)

	cur, curProc := st.serve(t, binary, "this release")
	if got, all := st.appliedMigrations(t), migrationFiles(t, st.engine); !slices.Equal(got, all) {
		t.Fatalf("after this release started: migrations %v applied, want %v", got, all)
	}
	cur.wantUser(t, token)
	want["to this release, with an Idempotency-Key"] = cur.submitContact(t, "to this release, with an Idempotency-Key", "upgrade-key-1")
	wantMessages(t, "this release: /rest/v1/contact_messages", cur.restMessages(t, token), want)
	wantMessages(t, "messages list", listMessages(t, nil, st.storeArgs...), want)
	wantSubscribers(t, st, "before@example.com")
	if staff := st.cli(t, binary, "staff", "list", "--format", "json"); !strings.Contains(staff, `"`+upgradeStaff+`"`) {
		t.Errorf("staff list lacks %s:\n%s", upgradeStaff, staff)
	}
	curProc.stop(t)

	old, oldProc = st.serve(t, previous, "previous release, rolled back")
	old.wantUser(t, token)
	want["to the previous release, rolled back"] = old.submitContact(t, "to the previous release, rolled back", "")
	wantMessages(t, "rolled back: /rest/v1/contact_messages", old.restMessages(t, token), want)
	oldProc.stop(t)

	testSealedKeysAndThePreviousRelease(t, st, previous, token)
}

// testSealedKeysAndThePreviousRelease: once every server runs this release,
// "keys seal" seals the signing key the previous release stored in clear;
// this release signs and verifies with it as before. The previous release
// cannot open it: it starts and serves, but signs nothing and accepts no
// token (no crash, no other key); "keys unseal" gives it its store back
// (docs/decisions/0012-secrets-at-rest.md).
func testSealedKeysAndThePreviousRelease(t *testing.T, st *upgradeStore, previous, token string) {
	if out := st.cli(t, binary, "keys", "seal", "--secret-key", upgradeMFAKey); !strings.Contains(out, "sealed signing key") {
		t.Fatalf("keys seal: %q", out)
	}
	cur, curProc := st.serve(t, binary, "this release, keys sealed")
	cur.wantUser(t, token)
	cur.wantUser(t, cur.signIn(t, st, binary))
	curProc.stop(t)

	old, oldProc := st.serve(t, previous, "previous release, keys sealed")
	if status, answer := old.call(t, "GET", "/auth/v1/user", "", "Authorization", "Bearer "+token); status < 500 {
		t.Errorf("%s: GET /auth/v1/user = %d %s, want a server error: it cannot open the key", old.name, status, answer)
	}
	code := strings.TrimSpace(st.cli(t, previous, "staff", "sign-in-code", upgradeStaff))
	if status, answer := old.call(t, "POST", "/auth/v1/verify", `{"type":"email","email":"`+upgradeStaff+`","token":"`+code+`"}`); status < 500 {
		t.Errorf("%s: verify = %d %s, want a server error, and no token", old.name, status, answer)
	}
	if status, _ := old.call(t, "GET", "/healthz", ""); status != http.StatusOK {
		t.Errorf("%s: /healthz = %d after meeting a sealed key", old.name, status)
	}
	oldProc.stop(t)

	if out := st.cli(t, binary, "keys", "unseal", "--secret-key", upgradeMFAKey); !strings.Contains(out, "stored in clear signing key") {
		t.Fatalf("keys unseal: %q", out)
	}
	old, _ = st.serve(t, previous, "previous release, keys unsealed")
	old.wantUser(t, token)
	old.wantUser(t, old.signIn(t, st, previous))
}

// upgradeStore is the store the releases share, as their flags and
// environment name it, and as the test reads it directly.
type upgradeStore struct {
	engine, driver, dsn string
	env                 []string
	storeArgs           []string // --data: SQLite's file; with PostgreSQL only the CLI's local state
	anonKey             string   // from the first instance's "keys print-anon"
}

// serve starts bin on the store. Instances on PostgreSQL each get a --data of their own.
func (st *upgradeStore) serve(t *testing.T, bin, name string) (instance, *studioProc) {
	t.Helper()
	args := []string{"--addr", "127.0.0.1:0", "--rate-limit", "off", "--auth-rate-limit", "off", "--mfa-key", upgradeMFAKey}
	if st.engine == "postgres" {
		args = append(args, "--data", t.TempDir())
	} else {
		args = append(args, st.storeArgs...)
	}
	base, p := startBinary(t, bin, st.env, args...)
	if st.anonKey == "" {
		st.anonKey = strings.TrimSpace(st.cli(t, bin, "keys", "print-anon"))
	}
	return instance{name: name, base: base, anonKey: st.anonKey}, p
}

// cli runs a command of bin on the store and returns what it printed.
func (st *upgradeStore) cli(t *testing.T, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, append(args, st.storeArgs...)...)
	cmd.Env = append(os.Environ(), st.env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("studio %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// appliedMigrations reads the versions in schema_migrations.
func (st *upgradeStore) appliedMigrations(t *testing.T) []int {
	t.Helper()
	db, err := sql.Open(st.driver, st.dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT version FROM schema_migrations ORDER BY version")
	if err != nil {
		t.Fatalf("read schema_migrations: %v", err)
	}
	defer rows.Close()
	var versions []int
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		versions = append(versions, v)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return versions
}

// migrationFiles are the versions of this release's migrations for engine.
func migrationFiles(t *testing.T, engine string) []int {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join("..", "..", "internal", "store", "migrations", engine))
	if err != nil {
		t.Fatal(err)
	}
	var versions []int
	for _, e := range entries {
		v, err := strconv.Atoi(strings.SplitN(e.Name(), "_", 2)[0])
		if err != nil {
			t.Fatalf("migration %s: %v", e.Name(), err)
		}
		versions = append(versions, v)
	}
	slices.Sort(versions)
	return versions
}

// instance is one running "studio serve", called the way supabase-js calls it: the
// anon key as apikey, a staff access token as the bearer.
type instance struct{ name, base, anonKey string }

// call sends a request with a JSON body (when not empty) and header pairs,
// and returns the status and the body of the answer.
func (s instance) call(t *testing.T, method, path, body string, headers ...string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, s.base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("apikey", s.anonKey)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	client := &http.Client{Timeout: 15 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s: %s %s: %v", s.name, method, path, err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, answer
}

// decode fails the test unless status is want and the answer decodes into out.
func (s instance) decode(t *testing.T, what string, status, want int, answer []byte, out any) {
	t.Helper()
	if status != want {
		t.Fatalf("%s: %s = %d, want %d: %s", s.name, what, status, want, answer)
	}
	if err := json.Unmarshal(answer, out); err != nil {
		t.Fatalf("%s: %s: %v: %s", s.name, what, err, answer)
	}
}

// submitContact sends a contact message, with an Idempotency-Key when key
// is not empty, and returns the id it was stored under.
func (s instance) submitContact(t *testing.T, text, key string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"name": "Upgrade", "email": "visitor@example.com", "company": nil, "phone": nil, "message": text})
	var headers []string
	if key != "" {
		headers = []string{"Idempotency-Key", key}
	}
	status, answer := s.call(t, "POST", "/functions/v1/submit-contact", string(body), headers...)
	var got struct{ ID string }
	s.decode(t, "submit-contact", status, http.StatusOK, answer, &got)
	if got.ID == "" {
		t.Fatalf("%s: submit-contact answered no id: %s", s.name, answer)
	}
	return got.ID
}

func (s instance) subscribe(t *testing.T, email string) {
	t.Helper()
	status, answer := s.call(t, "POST", "/functions/v1/subscribe-newsletter", `{"email":"`+email+`"}`)
	if status != http.StatusOK {
		t.Fatalf("%s: subscribe-newsletter = %d: %s", s.name, status, answer)
	}
}

// signIn verifies a code that bin's "staff sign-in-code" prints and returns
// the access token.
func (s instance) signIn(t *testing.T, st *upgradeStore, bin string) string {
	t.Helper()
	code := strings.TrimSpace(st.cli(t, bin, "staff", "sign-in-code", upgradeStaff))
	status, answer := s.call(t, "POST", "/auth/v1/verify", `{"type":"email","email":"`+upgradeStaff+`","token":"`+code+`"}`)
	var session struct {
		AccessToken string `json:"access_token"`
	}
	s.decode(t, "verify", status, http.StatusOK, answer, &session)
	if session.AccessToken == "" {
		t.Fatalf("%s: verify answered no access token: %s", s.name, answer)
	}
	return session.AccessToken
}

// wantUser checks that GET /auth/v1/user accepts token as the staff member's.
func (s instance) wantUser(t *testing.T, token string) {
	t.Helper()
	status, answer := s.call(t, "GET", "/auth/v1/user", "", "Authorization", "Bearer "+token)
	var user struct{ Email string }
	s.decode(t, "GET /auth/v1/user", status, http.StatusOK, answer, &user)
	if user.Email != upgradeStaff {
		t.Errorf("%s: GET /auth/v1/user is %q, want %s", s.name, user.Email, upgradeStaff)
	}
}

// wantSignedOut checks GoTrue's answer to a token whose session has ended.
func (s instance) wantSignedOut(t *testing.T, token string) {
	t.Helper()
	status, answer := s.call(t, "GET", "/auth/v1/user", "", "Authorization", "Bearer "+token)
	var refusal struct {
		ErrorCode string `json:"error_code"`
	}
	s.decode(t, "GET /auth/v1/user after the sign-out", status, http.StatusForbidden, answer, &refusal)
	if refusal.ErrorCode != "session_not_found" {
		t.Errorf("%s: error_code %q after the sign-out, want session_not_found", s.name, refusal.ErrorCode)
	}
}

// signOut ends token's session only (scope=local; GoTrue's default,
// global, would end every session of the staff member).
func (s instance) signOut(t *testing.T, token string) {
	t.Helper()
	if status, answer := s.call(t, "POST", "/auth/v1/logout?scope=local", "", "Authorization", "Bearer "+token); status != http.StatusNoContent {
		t.Fatalf("%s: logout = %d, want 204: %s", s.name, status, answer)
	}
}

// restMessages reads every contact message through /rest/v1.
func (s instance) restMessages(t *testing.T, token string) []listedMessage {
	t.Helper()
	status, answer := s.call(t, "GET", "/rest/v1/contact_messages?select=id,message", "", "Authorization", "Bearer "+token)
	var msgs []listedMessage
	s.decode(t, "GET /rest/v1/contact_messages", status, http.StatusOK, answer, &msgs)
	return msgs
}

// wantMessages checks that got holds each message of want (text → id)
// exactly once, under its id, and nothing else.
func wantMessages(t *testing.T, where string, got []listedMessage, want map[string]string) {
	t.Helper()
	count := map[string]int{}
	for _, m := range got {
		count[m.Message]++
		if id, ok := want[m.Message]; !ok {
			t.Errorf("%s: unexpected message %q", where, m.Message)
		} else if m.ID != id {
			t.Errorf("%s: %q has id %s, was answered %s", where, m.Message, m.ID, id)
		}
	}
	for text := range want {
		if count[text] != 1 {
			t.Errorf("%s: %q is there %d times, want once", where, text, count[text])
		}
	}
}

// wantSubscribers checks that "subscribers list" (this release) shows
// exactly the addresses.
func wantSubscribers(t *testing.T, st *upgradeStore, emails ...string) {
	t.Helper()
	var subs []struct{ Email string }
	if err := json.Unmarshal([]byte(st.cli(t, binary, "subscribers", "list", "--format", "json")), &subs); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range subs {
		got = append(got, s.Email)
	}
	slices.Sort(got)
	emails = slices.Sorted(slices.Values(emails))
	if !slices.Equal(got, emails) {
		t.Errorf("subscribers = %v, want %v", got, emails)
	}
}

// stop sends SIGTERM, as systemctl stop does, and waits for exit status 0.
func (p *studioProc) stop(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	p.wantCleanExit(t)
}

// wantCleanExit waits up to 15 s for the process, signalled with SIGTERM,
// to exit with status 0.
func (p *studioProc) wantCleanExit(t *testing.T) {
	t.Helper()
	select {
	case <-p.done:
		if p.err != nil {
			t.Fatalf("exit after SIGTERM: %v, want status 0", p.err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("did not exit within 15 s of SIGTERM")
	}
}
