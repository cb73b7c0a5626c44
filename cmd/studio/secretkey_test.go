package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"studio/internal/auth"
	"studio/internal/secretkey"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

// TestSecretKeySources: where the secret key comes from, in the order
// README.md gives: --secret-key, --mfa-key (its former name), secret.key in
// --data, mfa.key in --data (made by earlier releases), a new secret.key.
func TestSecretKeySources(t *testing.T) {
	const (
		keyA = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
		keyB = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=" // keyA in base64
		keyC = "1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100"
		keyD = "2f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100"
	)
	idOf := func(hex string) string {
		k, err := secretkey.ParseSecretKey(hex)
		if err != nil {
			t.Fatal(err)
		}
		return k.ID()
	}
	for _, tt := range []struct {
		name       string
		flags      secretKeyConfig
		files      map[string]string // in --data
		create     bool
		wantID     string // "" with wantErr, or when a new key is made
		wantErr    string
		wantMadeIn string // a file made in --data
	}{
		{name: "--secret-key", flags: secretKeyConfig{key: keyA}, files: map[string]string{"secret.key": keyC}, create: true, wantID: idOf(keyA)},
		{name: "--mfa-key alone", flags: secretKeyConfig{legacy: keyA}, files: map[string]string{"secret.key": keyC}, create: true, wantID: idOf(keyA)},
		{name: "both flags, the same key", flags: secretKeyConfig{key: keyA, legacy: keyB}, create: true, wantID: idOf(keyA)},
		{name: "both flags, different keys", flags: secretKeyConfig{key: keyA, legacy: keyC}, create: true, wantErr: "differ"},
		{name: "bad --secret-key", flags: secretKeyConfig{key: "short"}, create: true, wantErr: "--secret-key"},
		{name: "bad --mfa-key", flags: secretKeyConfig{legacy: "short"}, create: true, wantErr: "--mfa-key"},
		{name: "secret.key before mfa.key", files: map[string]string{"secret.key": keyC, "mfa.key": keyD}, create: true, wantID: idOf(keyC)},
		{name: "mfa.key of an earlier release", files: map[string]string{"mfa.key": keyD}, create: true, wantID: idOf(keyD)},
		{name: "a damaged key file", files: map[string]string{"secret.key": "short"}, create: true, wantErr: "secret.key"},
		{name: "none: made", create: true, wantMadeIn: "secret.key"},
		{name: "none, and not to be made", wantErr: "no secret.key or mfa.key"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range tt.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content+"\n"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			k, err := tt.flags.load(context.Background(), store.Config{DataDir: dir}, nil, nil, tt.create)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantID != "" && k.ID() != tt.wantID {
				t.Errorf("key %s, want %s", k.ID(), tt.wantID)
			}
			if tt.wantMadeIn == "" {
				if entries, _ := os.ReadDir(dir); len(entries) != len(tt.files) {
					t.Errorf("--data holds %d files, want the %d given", len(entries), len(tt.files))
				}
				return
			}
			info, err := os.Stat(filepath.Join(dir, tt.wantMadeIn))
			if err != nil || info.Mode().Perm() != 0o600 {
				t.Fatalf("made %s: %v, mode %v", tt.wantMadeIn, err, info.Mode())
			}
			again, err := tt.flags.load(context.Background(), store.Config{DataDir: dir}, nil, nil, false)
			if err != nil || again.ID() != k.ID() {
				t.Errorf("the made key read again: %v, %v", again, err)
			}
		})
	}
}

// TestSecretKeyMadeOnce: servers that start at once on one new --data all
// get the one key made there, whole.
func TestSecretKeyMadeOnce(t *testing.T) {
	for range 20 {
		dir := t.TempDir()
		ids := make(chan string, 8)
		var wg sync.WaitGroup
		for range cap(ids) {
			wg.Go(func() {
				k, _, _, err := secretkey.LoadOrCreateSecretKey(dir)
				if err != nil {
					t.Error(err)
					ids <- ""
					return
				}
				ids <- k.ID()
			})
		}
		wg.Wait()
		close(ids)
		first := <-ids
		for id := range ids {
			if id != first {
				t.Fatalf("keys %s and %s made in one --data", first, id)
			}
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Fatalf("--data holds %d files, want secret.key alone", len(entries))
		}
	}
}

// The keys of the key-mismatch tests: the servers' and another.
const (
	serversKey = upgradeMFAKey
	otherKey   = "1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100"
)

func keyID(t *testing.T, hex string) string {
	t.Helper()
	k, err := secretkey.ParseSecretKey(hex)
	check(t, err)
	return k.ID()
}

// signInByCode signs Ada in on the server at base with a code that
// "staff sign-in-code" makes, and returns the access token's header.
func signInByCode(t *testing.T, base, dir string) (status int, header string) {
	t.Helper()
	code, stdout, stderr := runCLI(t, nil, "staff", "sign-in-code", "ada@studio.test", "--data", dir)
	if code != 0 {
		t.Fatalf("staff sign-in-code: %s", stderr)
	}
	resp, err := http.Post(base+"/auth/v1/verify", "application/json",
		strings.NewReader(`{"type":"email","email":"ada@studio.test","token":"`+strings.TrimSpace(stdout)+`"}`))
	check(t, err)
	defer resp.Body.Close()
	var session struct {
		AccessToken string `json:"access_token"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&session)
	if parts := strings.Split(session.AccessToken, "."); len(parts) == 3 {
		h, _ := base64.RawURLEncoding.DecodeString(parts[0])
		header = string(h)
	}
	return resp.StatusCode, header
}

// TestKeysPrintAnonWithoutTheServersKey: the operator's slip of issue 29.
// Servers run with --secret-key; "keys print-anon" run on their --data
// without it must not make a secret.key there and seal a signing key with
// it (every sign-in would then fail): it fails with one line naming the
// store's key and how to give it, and makes nothing. Given another key, it
// names both keys. Sign-in keeps working.
func TestKeysPrintAnonWithoutTheServersKey(t *testing.T) {
	dir := t.TempDir()
	if code, _, stderr := runCLI(t, nil, "staff", "add", "ada@studio.test", "--data", dir); code != 0 {
		t.Fatal(stderr)
	}
	base, _ := startStudio(t, nil, "--addr", "127.0.0.1:0", "--data", dir, "--secret-key", serversKey)

	for _, tt := range []struct {
		name    string
		args    []string
		wantIDs []string
	}{
		{"without a key", nil, []string{keyID(t, serversKey)}},
		{"with another key", []string{"--secret-key", otherKey}, []string{keyID(t, serversKey), keyID(t, otherKey)}},
	} {
		code, stdout, stderr := runCLI(t, nil, append([]string{"keys", "print-anon", "--data", dir}, tt.args...)...)
		msg := strings.TrimSpace(stderr)
		if code != 1 || stdout != "" || strings.Contains(msg, "\n") || !strings.Contains(msg, "--secret-key or STUDIO_SECRET_KEY") {
			t.Errorf("%s: print-anon = %d %q %q; want exit 1 and one line naming --secret-key and STUDIO_SECRET_KEY", tt.name, code, stdout, stderr)
		}
		for _, id := range tt.wantIDs {
			if !strings.Contains(msg, id) {
				t.Errorf("%s: %q does not name secret key %s", tt.name, msg, id)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, secretkey.SecretKeyFile)); err == nil {
			t.Fatalf("%s: print-anon made %s beside the servers' store", tt.name, secretkey.SecretKeyFile)
		}
	}
	// A server started so stops at once, as the commands do.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, binary, "serve", "--addr", "127.0.0.1:0", "--data", dir).CombinedOutput()
	if err == nil || !strings.Contains(string(out), keyID(t, serversKey)) || !strings.Contains(string(out), "--secret-key or STUDIO_SECRET_KEY") {
		t.Errorf("serve without the key: %v %s; want it to stop naming the store's key", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, secretkey.SecretKeyFile)); err == nil {
		t.Fatalf("serve made %s beside the servers' store", secretkey.SecretKeyFile)
	}
	db := storetest.MustOpen(t, store.Config{DataDir: dir})
	if keys, err := db.ListSigningKeys(context.Background()); err != nil || len(keys) != 0 {
		t.Errorf("signing keys after the refused commands: %d, %v; want none made", len(keys), err)
	}
	if status, header := signInByCode(t, base, dir); status != 200 || header == "" {
		t.Errorf("sign-in after the slip = %d", status)
	}
	if code, stdout, stderr := runCLI(t, nil, "keys", "print-anon", "--data", dir, "--secret-key", serversKey); code != 0 || stdout == "" {
		t.Errorf("print-anon with the servers' key = %d %q", code, stderr)
	}
}

// TestSigningKeysOfAnotherSecretKey: a server signs with the newest
// signing key that opens with its secret key, skipping a newer one sealed
// with another; with only keys of another secret key, /readyz is 503 and
// names them and both secret keys (/healthz stays 200), sign-in fails, and
// the server makes no key of its own.
func TestSigningKeysOfAnotherSecretKey(t *testing.T) {
	ctx := context.Background()
	ours, err := secretkey.ParseSecretKey(serversKey)
	check(t, err)
	theirs, err := secretkey.ParseSecretKey(otherKey)
	check(t, err)
	setup := func(t *testing.T, keys ...*secretkey.SecretKey) (dir string, kids []string) {
		dir = t.TempDir()
		if code, _, stderr := runCLI(t, nil, "staff", "add", "ada@studio.test", "--data", dir); code != 0 {
			t.Fatal(stderr)
		}
		db := storetest.MustOpen(t, store.Config{DataDir: dir})
		for i, k := range keys {
			sk, err := auth.NewSigningKey(time.Now().Add(time.Duration(i)*time.Second), k)
			check(t, err)
			check(t, db.AddSigningKey(ctx, sk))
			kids = append(kids, sk.KID)
		}
		return dir, kids
	}
	readyz := func(t *testing.T, base string) (int, string) {
		t.Helper()
		resp, body := get(t, base+"/readyz")
		return resp.StatusCode, body
	}

	t.Run("ours and a newer one of another key", func(t *testing.T) {
		dir, kids := setup(t, ours, theirs)
		base, _ := startStudio(t, nil, "--addr", "127.0.0.1:0", "--data", dir, "--secret-key", serversKey)
		status, header := signInByCode(t, base, dir)
		if status != 200 || !strings.Contains(header, kids[0]) {
			t.Errorf("sign-in = %d, token header %s; want signed with our key %s", status, header, kids[0])
		}
		if status, body := readyz(t, base); status != 200 || !strings.Contains(body, `"signing_keys":"ok"`) {
			t.Errorf("/readyz = %d %s", status, body)
		}
	})
	t.Run("only keys of another", func(t *testing.T) {
		dir, kids := setup(t, theirs)
		base, _ := startStudio(t, nil, "--addr", "127.0.0.1:0", "--data", dir, "--secret-key", serversKey)
		status, body := readyz(t, base)
		for _, want := range []string{kids[0], theirs.ID(), ours.ID(), "--secret-key or STUDIO_SECRET_KEY", `"status":"unavailable"`} {
			if !strings.Contains(body, want) {
				t.Errorf("/readyz = %d %s; lacks %q", status, body, want)
			}
		}
		if status != http.StatusServiceUnavailable {
			t.Errorf("/readyz = %d, want 503", status)
		}
		if resp, _ := get(t, base+"/healthz"); resp.StatusCode != 200 {
			t.Errorf("/healthz = %d, want 200", resp.StatusCode)
		}
		if status, _ := signInByCode(t, base, dir); status < 500 {
			t.Errorf("sign-in = %d, want a server error: no key signs", status)
		}
		db := storetest.MustOpen(t, store.Config{DataDir: dir})
		if keys, err := db.ListSigningKeys(ctx); err != nil || len(keys) != 1 {
			t.Errorf("signing keys: %d, %v; want the one of the other key, no new one", len(keys), err)
		}
	})
}
