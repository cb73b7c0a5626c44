package main

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/acme/autocert"

	"studio/internal/auth"
	"studio/internal/secretkey"
	"studio/internal/staff"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

// TestKeysSealAndUnseal: a store an earlier release left (its key file
// mfa.key, a signing key and the ACME account key in clear) is served as it
// is; "keys seal" seals the keys so that the rows hold no private material
// and open with the secret key alone; "keys unseal" gives the earlier
// release its store back.
func TestKeysSealAndUnseal(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, secretkey.LegacyKeyFile), []byte(upgradeMFAKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	der, accountPEM := newPrivateKey(t)
	db := storetest.MustOpen(t, store.Config{DataDir: dir})
	legacy := staff.SigningKey{KID: "legacy-kid", Algorithm: auth.AlgES256, PrivateKey: der, CreatedAt: time.Now().UTC()}
	check(t, db.AddSigningKey(ctx, legacy))
	check(t, db.CachePut(ctx, "acme_account+key", accountPEM))
	check(t, db.CachePut(ctx, "token+http-01", []byte("token.thumbprint")))

	anonHeader := func(extra ...string) string {
		t.Helper()
		code, stdout, stderr := runCLI(t, nil, append([]string{"keys", "print-anon", "--data", dir}, extra...)...)
		if code != 0 {
			t.Fatalf("keys print-anon %v = %d %s", extra, code, stderr)
		}
		h, _ := base64.RawURLEncoding.DecodeString(strings.Split(stdout, ".")[0])
		return string(h)
	}
	if h := anonHeader(); !strings.Contains(h, legacy.KID) {
		t.Fatalf("the key in clear does not sign: %s", h)
	}

	code, stdout, stderr := runCLI(t, nil, "keys", "seal", "--data", dir)
	if code != 0 || !strings.Contains(stdout, "sealed signing key legacy-kid") || !strings.Contains(stdout, "sealed ACME cache entry acme_account+key") ||
		strings.Contains(stdout, "http-01") {
		t.Fatalf("keys seal = %d %q %q", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, secretkey.SecretKeyFile)); err == nil {
		t.Error("keys seal made secret.key beside the mfa.key it should use")
	}
	row, account, token := rawKeys(t, db)
	for name, leak := range map[string][]byte{"signing key DER": der, "account key PEM": []byte("PRIVATE KEY"), "account key DER": pemBody(t, accountPEM)} {
		if bytes.Contains(row, leak) || bytes.Contains(account, leak) {
			t.Errorf("a sealed row holds the %s", name)
		}
	}
	if !secretkey.IsSealed(row) || !secretkey.IsSealed(account) || string(token) != "token.thumbprint" {
		t.Errorf("after keys seal: signing key %.30q, account %.30q, http-01 answer %q", row, account, token)
	}
	if h := anonHeader(); !strings.Contains(h, legacy.KID) {
		t.Errorf("the sealed key does not sign: %s", h)
	}
	other := "2f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100"
	if code, _, stderr := runCLI(t, nil, "keys", "print-anon", "--data", dir, "--secret-key", other); code != 1 || !strings.Contains(stderr, "sealed with secret key") {
		t.Errorf("print-anon with another secret key = %d %q", code, stderr)
	}
	if code, stdout, _ := runCLI(t, nil, "keys", "seal", "--data", dir); code != 0 || !strings.Contains(stdout, "nothing to change") {
		t.Errorf("keys seal again = %d %q", code, stdout)
	}

	if code, stdout, stderr := runCLI(t, nil, "keys", "unseal", "--data", dir); code != 0 || !strings.Contains(stdout, "stored in clear signing key legacy-kid") {
		t.Fatalf("keys unseal = %d %q %q", code, stdout, stderr)
	}
	row, account, _ = rawKeys(t, db)
	if !bytes.Equal(row, der) || !bytes.Equal(account, accountPEM) {
		t.Error("keys unseal did not give back the keys as the earlier release stored them")
	}

	// Without a key, neither command makes one: a key the servers lack
	// would leave them unable to sign.
	bare := t.TempDir()
	if code, _, _ := runCLI(t, nil, "keys", "print-anon", "--data", bare); code != 0 {
		t.Fatal("print-anon on a new store")
	}
	check(t, os.Remove(filepath.Join(bare, secretkey.SecretKeyFile)))
	if code, _, stderr := runCLI(t, nil, "keys", "seal", "--data", bare); code != 1 || !strings.Contains(stderr, "no secret.key") {
		t.Errorf("keys seal without a key = %d %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(bare, secretkey.SecretKeyFile)); err == nil {
		t.Error("keys seal made a secret key")
	}
}

// TestStoreCertCache: autocert's entries are sealed on the way in, except
// the public http-01 answers; an entry stored in clear by an earlier release
// is read as it is; one sealed with another key is an error, not a miss
// (autocert would ask the CA again).
func TestStoreCertCache(t *testing.T) {
	ctx := context.Background()
	db := storetest.MustOpen(t, store.Config{DataDir: t.TempDir()})
	secrets, _ := secretkey.NewRandomSecretKey()
	other, _ := secretkey.NewRandomSecretKey()
	cache := storeCertCache{db: db, secrets: secrets, logger: cliLogger(&bytes.Buffer{})}
	_, certPEM := newPrivateKey(t)

	check(t, cache.Put(ctx, "studio.test", certPEM))
	check(t, cache.Put(ctx, "token+http-01", []byte("answer")))
	check(t, db.CachePut(ctx, "old.test", certPEM)) // an earlier release's
	for _, tt := range []struct {
		key        string
		wantSealed bool
	}{{"studio.test", true}, {"token+http-01", false}, {"old.test", false}} {
		raw, err := db.CacheGet(ctx, tt.key)
		if err != nil || secretkey.IsSealed(raw) != tt.wantSealed {
			t.Errorf("%s stored %.30q, %v; want sealed %v", tt.key, raw, err, tt.wantSealed)
		}
		got, err := cache.Get(ctx, tt.key)
		if err != nil || (tt.key != "token+http-01" && !bytes.Equal(got, certPEM)) {
			t.Errorf("Get(%s) = %.30q, %v", tt.key, got, err)
		}
	}
	if _, err := cache.Get(ctx, "missing.test"); err != autocert.ErrCacheMiss {
		t.Errorf("Get of a missing entry = %v, want autocert.ErrCacheMiss", err)
	}
	wrong := storeCertCache{db: db, secrets: other, logger: cliLogger(&bytes.Buffer{})}
	if _, err := wrong.Get(ctx, "studio.test"); err == nil || err == autocert.ErrCacheMiss {
		t.Errorf("Get with another secret key = %v, want an error", err)
	}
}

func check(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// newPrivateKey is a P-256 key as PKCS #8 DER and as the PEM autocert keeps.
func newPrivateKey(t *testing.T) (der, pemBytes []byte) {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	check(t, err)
	der, err = x509.MarshalPKCS8PrivateKey(priv)
	check(t, err)
	ec, err := x509.MarshalECPrivateKey(priv)
	check(t, err)
	return der, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: ec})
}

func pemBody(t *testing.T, b []byte) []byte {
	t.Helper()
	block, _ := pem.Decode(b)
	if block == nil {
		t.Fatal("not PEM")
	}
	return block.Bytes
}

// rawKeys are the rows of the signing key, the ACME account key and the
// http-01 answer, as stored.
func rawKeys(t *testing.T, db *store.DB) (signingKey, account, token []byte) {
	t.Helper()
	ctx := context.Background()
	keys, err := db.ListSigningKeys(ctx)
	if err != nil || len(keys) != 1 {
		t.Fatalf("signing keys: %d, %v", len(keys), err)
	}
	account, err = db.CacheGet(ctx, "acme_account+key")
	check(t, err)
	token, err = db.CacheGet(ctx, "token+http-01")
	check(t, err)
	return keys[0].PrivateKey, account, token
}

// TestKeysDropUnreadable: after the secret key is lost, the keys sealed
// with it are removed (the http-01 answers, in clear, stay) and a new
// signing key is made; keys that open are never removed.
func TestKeysDropUnreadable(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if code, _, stderr := runCLI(t, nil, "keys", "print-anon", "--data", dir); code != 0 {
		t.Fatal(stderr)
	}
	lost, _, err := secretkey.LoadSecretKey(dir)
	check(t, err)
	db := storetest.MustOpen(t, store.Config{DataDir: dir})
	_, certPEM := newPrivateKey(t)
	cache := storeCertCache{db: db, secrets: lost, logger: cliLogger(&bytes.Buffer{})}
	check(t, cache.Put(ctx, "studio.test", certPEM))
	check(t, cache.Put(ctx, "token+http-01", []byte("answer")))

	if code, stdout, _ := runCLI(t, nil, "keys", "drop-unreadable", "--data", dir); code != 0 || !strings.Contains(stdout, "nothing to remove") {
		t.Errorf("drop-unreadable with the right key = %d %q", code, stdout)
	}
	before, err := db.ListSigningKeys(ctx)
	check(t, err)

	// The key is lost: a new one is given.
	check(t, os.WriteFile(filepath.Join(dir, secretkey.SecretKeyFile), []byte(upgradeMFAKey+"\n"), 0o600))
	if code, _, stderr := runCLI(t, nil, "keys", "print-anon", "--data", dir); code != 1 || !strings.Contains(stderr, "sealed with secret key") {
		t.Fatalf("print-anon with a new secret key = %d %q", code, stderr)
	}
	code, stdout, stderr := runCLI(t, nil, "keys", "drop-unreadable", "--data", dir)
	if code != 0 || !strings.Contains(stdout, "removed signing key "+before[0].KID) || !strings.Contains(stdout, "removed ACME cache entry studio.test") ||
		strings.Contains(stdout, "http-01") {
		t.Fatalf("drop-unreadable = %d %q %q", code, stdout, stderr)
	}
	if answer, err := db.CacheGet(ctx, "token+http-01"); err != nil || string(answer) != "answer" {
		t.Errorf("the http-01 answer: %q, %v", answer, err)
	}
	if code, _, stderr := runCLI(t, nil, "keys", "print-anon", "--data", dir); code != 0 {
		t.Errorf("print-anon after drop-unreadable = %d %q", code, stderr)
	}
	if after, err := db.ListSigningKeys(ctx); err != nil || len(after) != 1 || after[0].KID == before[0].KID {
		t.Errorf("signing keys after drop-unreadable: %v, %v; want one new key", after, err)
	}
}
