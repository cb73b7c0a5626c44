package store_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"studio/internal/store"
	"studio/internal/store/storetest"
)

// lastReleasedMigration is the newest migration of the previous release
// (the commit in deploy/previous-release); the release procedure updates
// both together. A constant rather than a look at that commit's files, so
// that the check needs neither git nor the history (a shallow clone, a
// source archive): a stale value only checks released migrations again.
const lastReleasedMigration = 8

// unsafeForRollingUpgrades are statements that break the previous release
// while it still runs on the migrated schema: it reads and writes the
// tables and columns it knows, by name and type, and inserts rows without
// the columns it does not know. Such changes wait for a later release
// (expand, then contract: docs/deploy.md).
var unsafeForRollingUpgrades = []struct {
	why         string
	re          *regexp.Regexp
	unlessMatch *regexp.Regexp // what makes a match safe after all
}{
	{"drops a table or column", regexp.MustCompile(`(?i)\bDROP\s+(TABLE|COLUMN)\b`), nil},
	{"renames", regexp.MustCompile(`(?i)\bRENAME\b`), nil},
	{"changes a column's type", regexp.MustCompile(`(?i)\bALTER\s+(COLUMN\s+)?\w+\s+(SET\s+DATA\s+)?TYPE\b`), nil},
	{"makes a column NOT NULL", regexp.MustCompile(`(?i)\bSET\s+NOT\s+NULL\b`), nil},
	{"drops a column's DEFAULT", regexp.MustCompile(`(?i)\bDROP\s+DEFAULT\b`), nil},
	// The clause from ADD to the next comma or the statement's end.
	{"adds a NOT NULL column without a DEFAULT", regexp.MustCompile(`(?i)\bADD\s+(COLUMN\s+)?[^,]*\bNOT\s+NULL\b[^,]*`),
		regexp.MustCompile(`(?i)\bDEFAULT\b`)},
}

var sqlComment = regexp.MustCompile(`--[^\n]*`)

// unsafeStatements returns why each statement of a migration would break
// the previous release, or nothing.
func unsafeStatements(migration string) []string {
	var problems []string
	for _, stmt := range strings.Split(sqlComment.ReplaceAllString(migration, ""), ";") {
		for _, rule := range unsafeForRollingUpgrades {
			match := rule.re.FindString(stmt)
			if match == "" || rule.unlessMatch != nil && rule.unlessMatch.MatchString(match) {
				continue
			}
			problems = append(problems, rule.why+": "+strings.Join(strings.Fields(stmt), " "))
		}
	}
	return problems
}

// TestMigrationsAreSafeForRollingUpgrades: the migrations added since the
// previous release leave it working, as TestRollingUpgrade (cmd/studio)
// runs it; this names the statement that would not.
func TestMigrationsAreSafeForRollingUpgrades(t *testing.T) {
	for _, engine := range []string{"postgres", "sqlite"} {
		dir := filepath.Join("migrations", engine)
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		released := false
		for _, e := range entries {
			version, err := strconv.Atoi(strings.SplitN(e.Name(), "_", 2)[0])
			if err != nil {
				t.Fatalf("%s/%s: %v", dir, e.Name(), err)
			}
			released = released || version == lastReleasedMigration
			if version <= lastReleasedMigration {
				continue
			}
			body, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range unsafeStatements(string(body)) {
				t.Errorf("%s/%s %s", dir, e.Name(), p)
			}
		}
		if !released {
			t.Errorf("%s has no migration %04d: lastReleasedMigration must name the previous release's last one", dir, lastReleasedMigration)
		}
	}
}

// TestUnsafeStatements: what the rule above catches, and what it lets pass.
func TestUnsafeStatements(t *testing.T) {
	unsafe := []string{
		"DROP TABLE waitlist_entries",
		"ALTER TABLE contact_messages DROP COLUMN phone",
		"ALTER TABLE contact_messages RENAME COLUMN message TO body",
		"ALTER TABLE outbox RENAME TO mail_outbox",
		"ALTER TABLE contact_messages ALTER COLUMN spam TYPE INTEGER",
		"ALTER TABLE contact_messages ALTER spam SET DATA TYPE INTEGER",
		"ALTER TABLE contact_messages ALTER COLUMN company SET NOT NULL",
		"ALTER TABLE contact_messages ALTER COLUMN source DROP DEFAULT",
		"ALTER TABLE contact_messages ADD COLUMN source TEXT NOT NULL",
		"alter table contact_messages add source text not null",
	}
	safe := []string{
		"ALTER TABLE contact_messages ADD COLUMN idempotency_key TEXT",
		"ALTER TABLE contact_messages ADD COLUMN source TEXT NOT NULL DEFAULT 'form'",
		"CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT NOT NULL)",
		"CREATE UNIQUE INDEX contact_messages_key ON contact_messages (idempotency_key)",
		"DROP INDEX IF EXISTS unused_index",
		"-- a comment may say DROP TABLE or RENAME\nCREATE INDEX a ON b (c)",
	}
	for _, stmt := range unsafe {
		if len(unsafeStatements(stmt)) == 0 {
			t.Errorf("not caught: %s", stmt)
		}
	}
	for _, stmt := range safe {
		if p := unsafeStatements(stmt); len(p) > 0 {
			t.Errorf("refused: %s: %v", stmt, p)
		}
	}
}

// TestOpenToleratesNewerMigrations: a store whose schema a newer release
// has migrated further opens and works, so that this release, once it is
// the previous one, may restart (or be rolled back to) mid-upgrade. It
// leaves the migrations it does not know alone.
func TestOpenToleratesNewerMigrations(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			cfg := engine.NewConfig(t)
			storetest.MustOpen(t, cfg).Close()
			raw := openRaw(t, cfg)
			if _, err := raw.Exec(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, '9999_from_a_newer_release.sql', '2030-01-01T00:00:00Z')`); err != nil {
				t.Fatal(err)
			}

			db := storetest.MustOpen(t, cfg)
			if _, err := db.CreateContactMessage(context.Background(), message("after", t0), nil); err != nil {
				t.Errorf("write on the newer schema: %v", err)
			}
			var n int
			if err := raw.QueryRow(`SELECT COUNT(*) FROM schema_migrations WHERE version = 9999`).Scan(&n); err != nil || n != 1 {
				t.Errorf("the newer migration's row: %d, %v; want it kept", n, err)
			}
		})
	}
}

// openRaw opens cfg's database without the store, closed at the end of the test.
func openRaw(t *testing.T, cfg store.Config) *sql.DB {
	t.Helper()
	driver, dsn := "pgx", cfg.DatabaseURL
	if dsn == "" {
		driver, dsn = "sqlite", filepath.Join(cfg.DataDir, store.SQLiteFile)
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
