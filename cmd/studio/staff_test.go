package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"studio/internal/staff"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

func runCLI(t *testing.T, env func(string) string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	if env == nil {
		env = func(string) string { return "" }
	}
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, env, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestStaffCommands(t *testing.T) {
	dir := t.TempDir()
	steps := []struct {
		name     string
		args     []string
		wantCode int
		want     string // in stdout (exit 0) or stderr
	}{
		{"add with a name after the address", []string{"staff", "add", "Ada@Studio.test", "--name", "Ada Lovelace", "--data", dir}, 0, "added ada@studio.test"},
		{"add with flags first", []string{"staff", "add", "--data", dir, "grace@studio.test"}, 0, "added grace@studio.test"},
		{"add twice", []string{"staff", "add", "ada@studio.test", "--data", dir}, 1, "ada@studio.test is already staff"},
		{"add without an address", []string{"staff", "add", "--data", dir}, 2, "want an e-mail address"},
		{"add a bad address", []string{"staff", "add", "not-an-address", "--data", dir}, 2, "is not an e-mail address"},
		{"add with a stray argument", []string{"staff", "add", "x@studio.test", "extra", "--data", dir}, 2, `unexpected argument "extra"`},
		{"list as CSV", []string{"staff", "list", "--data", dir, "--format", "csv"}, 0, ",ada@studio.test,Ada Lovelace,"},
		{"code for someone who is not staff", []string{"staff", "sign-in-code", "eve@studio.test", "--data", dir}, 1, "eve@studio.test is not staff"},
		{"reset MFA of someone without factors", []string{"staff", "reset-mfa", "grace@studio.test", "--data", dir}, 0, "removed 0 factor(s) of grace@studio.test"},
		{"reset MFA of someone who is not staff", []string{"staff", "reset-mfa", "eve@studio.test", "--data", dir}, 1, "eve@studio.test is not staff"},
		{"remove", []string{"staff", "remove", "grace@studio.test", "--data", dir}, 0, "removed grace@studio.test"},
		{"remove twice", []string{"staff", "remove", "grace@studio.test", "--data", dir}, 1, "grace@studio.test is not staff"},
		{"remove from no store", []string{"staff", "remove", "grace@studio.test", "--data", t.TempDir()}, 1, "no store in"},
	}
	for _, s := range steps {
		code, stdout, stderr := runCLI(t, nil, s.args...)
		out := stdout
		if s.wantCode != 0 {
			out = stderr
		}
		if code != s.wantCode || !strings.Contains(out, s.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit %d and %q", s.name, code, stdout, stderr, s.wantCode, s.want)
		}
	}

	code, stdout, _ := runCLI(t, nil, "staff", "list", "--data", dir, "--format", "json")
	var listed []struct{ ID, Email, Name string }
	if err := json.Unmarshal([]byte(stdout), &listed); code != 0 || err != nil || len(listed) != 1 || listed[0].Email != "ada@studio.test" || listed[0].Name != "Ada Lovelace" {
		t.Errorf("staff list --format json = %d %s", code, stdout)
	}
	code, stdout, _ = runCLI(t, nil, "staff", "list", "--data", dir)
	if code != 0 || !strings.HasPrefix(stdout, "ID ") || !strings.Contains(stdout, "Ada Lovelace") {
		t.Errorf("staff list = %d\n%s", code, stdout)
	}
	code, stdout, _ = runCLI(t, nil, "audit", "list", "--data", dir, "--format", "csv")
	if code != 0 || strings.Count(stdout, "staff_added") != 2 || strings.Count(stdout, "staff_removed") != 1 {
		t.Errorf("audit list = %d\n%s", code, stdout)
	}
}

// TestStaffResetMFA: reset-mfa removes the person's factors and ends their
// sessions.
func TestStaffResetMFA(t *testing.T) {
	dir := t.TempDir()
	if code, _, stderr := runCLI(t, nil, "staff", "add", "ada@studio.test", "--data", dir); code != 0 {
		t.Fatal(stderr)
	}
	ctx := context.Background()
	db, err := store.Open(ctx, store.Config{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	u, err := db.FindUserByEmail(ctx, "ada@studio.test")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	sess := staff.Session{ID: "0a0b0c0d-0000-4000-8000-000000000001", UserID: u.ID, CreatedAt: now, RefreshedAt: now, AAL: "aal2"}
	factor := staff.Factor{ID: "0a0b0c0d-0000-4000-8000-000000000002", UserID: u.ID, FactorType: staff.FactorTOTP,
		Status: staff.FactorVerified, Secret: "sealed", CreatedAt: now, UpdatedAt: now}
	if err := db.StartSession(ctx, sess, "refresh-hash", staff.AuditEntry{}); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateFactor(ctx, factor, now, func([]staff.Factor) error { return nil }, staff.AuditEntry{}); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, nil, "staff", "reset-mfa", "ada@studio.test", "--data", dir)
	if code != 0 || !strings.Contains(stdout, "removed 1 factor(s) of ada@studio.test") {
		t.Fatalf("reset-mfa = %d %q %q", code, stdout, stderr)
	}
	if u, err := db.FindUserByEmail(ctx, "ada@studio.test"); err != nil || len(u.Factors) != 0 {
		t.Errorf("factors after reset = %v, %v", u.Factors, err)
	}
	if _, err := db.FindSession(ctx, sess.ID); err == nil {
		t.Error("the session outlived reset-mfa")
	}
}

// TestStaffUnlock: unlock (and reset-mfa) clear a lockout of the person's
// sign-in codes at once, logged as codes_unlocked.
func TestStaffUnlock(t *testing.T) {
	dir := t.TempDir()
	if code, _, stderr := runCLI(t, nil, "staff", "add", "ada@studio.test", "--data", dir); code != 0 {
		t.Fatal(stderr)
	}
	db := storetest.MustOpen(t, store.Config{DataDir: dir})
	ctx := context.Background()
	u, err := db.FindUserByEmail(ctx, "ada@studio.test")
	if err != nil {
		t.Fatal(err)
	}
	typed := func(hash string) error {
		_, err := db.ConsumeCodeByEmail(ctx, u.Email, staff.PurposeSignIn, time.Now(), staff.MaxCodeTries,
			func(_, stored string) bool { return stored == hash }, staff.CodeFailure{}, nil)
		return err
	}
	// lockOut types MaxFailures wrong codes, then gives Ada a code that
	// is refused for it.
	lockOut := func() {
		t.Helper()
		for range staff.MaxFailures {
			if err := typed("wrong"); !errors.Is(err, staff.ErrCodeInvalid) {
				t.Fatalf("wrong code: %v", err)
			}
		}
		now := time.Now()
		c := staff.Code{UserID: u.ID, Purpose: staff.PurposeSignIn, CodeHash: "right", LinkHash: "link", CreatedAt: now, ExpiresAt: now.Add(time.Hour)}
		if err := db.CreateCode(ctx, c, staff.AuditEntry{}); err != nil {
			t.Fatal(err)
		}
		var locked *staff.CodesLockedError
		if err := typed("right"); !errors.As(err, &locked) {
			t.Fatalf("the right code after %d wrong ones: %v, want locked out", staff.MaxFailures, err)
		}
	}

	lockOut()
	code, stdout, stderr := runCLI(t, nil, "staff", "unlock", "ada@studio.test", "--data", dir)
	if code != 0 || !strings.Contains(stdout, "unlocked the codes of ada@studio.test (10 wrong codes since ") {
		t.Fatalf("unlock = %d %q %q", code, stdout, stderr)
	}
	if err := typed("right"); err != nil {
		t.Errorf("the right code after unlock: %v", err)
	}
	for _, s := range []struct {
		args     []string
		wantCode int
		want     string
	}{
		{[]string{"staff", "unlock", "ada@studio.test", "--data", dir}, 0, "the codes of ada@studio.test were not locked out; cleared 0 wrong code(s)"},
		{[]string{"staff", "unlock", "eve@studio.test", "--data", dir}, 1, "eve@studio.test is not staff"},
		{[]string{"staff", "unlock", "--data", dir}, 2, "want an e-mail address"},
	} {
		code, stdout, stderr := runCLI(t, nil, s.args...)
		if out := stdout + stderr; code != s.wantCode || !strings.Contains(out, s.want) {
			t.Errorf("%v: exit %d, %q; want exit %d and %q", s.args, code, out, s.wantCode, s.want)
		}
	}

	lockOut()
	if code, stdout, stderr := runCLI(t, nil, "staff", "reset-mfa", "ada@studio.test", "--data", dir); code != 0 {
		t.Fatalf("reset-mfa = %d %q %q", code, stdout, stderr)
	}
	if err := typed("right"); err != nil {
		t.Errorf("the right code after reset-mfa: %v", err)
	}
	if code, stdout, _ := runCLI(t, nil, "audit", "list", "--data", dir, "--format", "csv"); code != 0 || strings.Count(stdout, "codes_unlocked") != 2 {
		t.Errorf("audit list = %d, want two codes_unlocked:\n%s", code, stdout)
	}
}

// TestStaffSignInCode: the printed code signs in once, by the store's rules.
func TestStaffSignInCode(t *testing.T) {
	dir := t.TempDir()
	if code, _, stderr := runCLI(t, nil, "staff", "add", "ada@studio.test", "--data", dir); code != 0 {
		t.Fatal(stderr)
	}
	code, stdout, stderr := runCLI(t, nil, "staff", "sign-in-code", "ada@studio.test", "--data", dir)
	if code != 0 || !regexp.MustCompile(`^\d{6}\n$`).MatchString(stdout) {
		t.Fatalf("sign-in-code = %d %q %q", code, stdout, stderr)
	}
	db := storetest.MustOpen(t, store.Config{DataDir: dir})
	ctx := context.Background()
	u, err := db.FindUserByEmail(ctx, "ada@studio.test")
	if err != nil {
		t.Fatal(err)
	}
	printed := strings.TrimSpace(stdout)
	if err := db.ConsumeCode(ctx, u.ID, staff.PurposeSignIn, staff.CodeHash(u.ID, printed), time.Now(), staff.MaxCodeTries, staff.AuditEntry{}); err != nil {
		t.Errorf("the printed code: %v", err)
	}
	if err := db.ConsumeCode(ctx, u.ID, staff.PurposeSignIn, staff.CodeHash(u.ID, printed), time.Now(), staff.MaxCodeTries, staff.AuditEntry{}); err == nil {
		t.Error("the printed code worked twice")
	}
}

// TestKeysPrintAnon: the anon key is a JWT of the role anon, signed by the
// store's key, the same key on every run.
func TestKeysPrintAnon(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			cfg := engine.NewConfig(t)
			env := func(k string) string {
				if k == "DATABASE_URL" {
					return cfg.DatabaseURL
				}
				return ""
			}
			if cfg.DataDir == "" {
				cfg.DataDir = t.TempDir() // the secret key's file, even with PostgreSQL
			}
			args := []string{"keys", "print-anon", "--data", cfg.DataDir}
			var kids []string
			for range 2 {
				code, stdout, stderr := runCLI(t, env, args...)
				parts := strings.Split(strings.TrimSpace(stdout), ".")
				if code != 0 || len(parts) != 3 {
					t.Fatalf("keys print-anon = %d %q %q", code, stdout, stderr)
				}
				var header struct{ Alg, Kid string }
				var claims struct{ Role string }
				h, _ := base64.RawURLEncoding.DecodeString(parts[0])
				c, _ := base64.RawURLEncoding.DecodeString(parts[1])
				if json.Unmarshal(h, &header) != nil || json.Unmarshal(c, &claims) != nil || header.Alg != "ES256" || claims.Role != "anon" {
					t.Errorf("anon key header %s claims %s", h, c)
				}
				kids = append(kids, header.Kid)
			}
			if kids[0] == "" || kids[0] != kids[1] {
				t.Errorf("kids = %v, want one key kept in the store", kids)
			}
		})
	}
}

// TestKeysRotate: a new key is added; the old one stays while it may have
// signed a live token.
func TestKeysRotate(t *testing.T) {
	dir := t.TempDir()
	if code, _, stderr := runCLI(t, nil, "keys", "print-anon", "--data", dir); code != 0 {
		t.Fatal(stderr)
	}
	code, stdout, stderr := runCLI(t, nil, "keys", "rotate", "--data", dir)
	if code != 0 || !strings.HasPrefix(stdout, "added signing key ") || strings.Contains(stdout, "removed") {
		t.Fatalf("keys rotate = %d %q %q", code, stdout, stderr)
	}
	db := storetest.MustOpen(t, store.Config{DataDir: dir})
	keys, err := db.ListSigningKeys(context.Background())
	if err != nil || len(keys) != 2 || !strings.Contains(stdout, keys[0].KID) {
		t.Errorf("keys after rotation = %d, %v; output %q", len(keys), err, stdout)
	}
	if code, _, stderr := runCLI(t, nil, "keys", "rotate", "--data", dir, "--jwt-expiry", "10s"); code != 1 || !strings.Contains(stderr, "--jwt-expiry") {
		t.Errorf("too short --jwt-expiry: exit %d %q", code, stderr)
	}
}

// TestStaffPhone: staff add --phone keeps the number (E.164, shown with its
// "+" by staff list), refuses one that is not E.164 and one that is
// already someone's.
func TestStaffPhone(t *testing.T) {
	dir := t.TempDir()
	steps := []struct {
		name     string
		args     []string
		wantCode int
		want     string // in stdout (exit 0) or stderr
	}{
		{"add with a phone", []string{"staff", "add", "ada@studio.test", "--phone", "+44 20 7946 0958", "--data", dir}, 0, "added ada@studio.test"},
		{"add without one", []string{"staff", "add", "grace@studio.test", "--data", dir}, 0, "added grace@studio.test"},
		{"add with a phone that is not E.164", []string{"staff", "add", "eve@studio.test", "--phone", "020 7946 0958", "--data", dir}, 1, "not a phone number in E.164"},
		{"add with someone's phone", []string{"staff", "add", "eve@studio.test", "--phone", "+442079460958", "--data", dir}, 1, "+442079460958 is already the phone of a member of staff"},
		{"list", []string{"staff", "list", "--data", dir, "--format", "csv"}, 0, "ada@studio.test,,'+442079460958,"}, // a leading + is quoted against spreadsheet formulas,
	}
	for _, s := range steps {
		code, stdout, stderr := runCLI(t, nil, s.args...)
		out := stdout
		if s.wantCode != 0 {
			out = stderr
		}
		if code != s.wantCode || !strings.Contains(out, s.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit %d and %q", s.name, code, stdout, stderr, s.wantCode, s.want)
		}
	}
	_, stdout, _ := runCLI(t, nil, "staff", "list", "--data", dir, "--format", "json")
	var listed []struct{ Email, Phone string }
	if err := json.Unmarshal([]byte(stdout), &listed); err != nil || len(listed) != 2 || listed[0].Phone != "+442079460958" || listed[1].Phone != "" {
		t.Errorf("staff list --format json = %s", stdout)
	}
}
