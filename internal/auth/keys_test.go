package auth_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"studio/internal/auth"
	"studio/internal/secretkey"
	"studio/internal/staff"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

// TestSigningKeysSealed: the signing keys are stored sealed with the secret
// key, and open with it alone; a key stored in clear by an earlier release
// is still read, and "keys seal" / "keys unseal" turn one form into the
// other without changing the keys.
func TestSigningKeysSealed(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) { testSigningKeysSealed(t, engine.New(t)) })
	}
}

func testSigningKeysSealed(t *testing.T, db *store.DB) {
	ctx := context.Background()
	secrets, _ := secretkey.NewRandomSecretKey()
	other, _ := secretkey.NewRandomSecretKey()
	now := time.Now().UTC().Truncate(time.Second)

	made, err := auth.LoadKeys(ctx, db, secrets, now)
	if err != nil {
		t.Fatal(err)
	}
	first := onlySigningKeyRow(t, db)
	if !secretkey.IsSealed(first.PrivateKey) || len(made.Unsealed) != 0 {
		t.Fatalf("the first key is stored %.40q, Unsealed %v; want it sealed", first.PrivateKey, made.Unsealed)
	}
	if _, err := x509.ParsePKCS8PrivateKey(first.PrivateKey); err == nil {
		t.Fatal("the stored key parses as PKCS #8")
	}
	if _, err := auth.LoadKeys(ctx, db, other, now); err == nil || !strings.Contains(err.Error(), "sealed with secret key") {
		t.Errorf("LoadKeys with another secret key: %v, want an error naming the key", err)
	}

	// An earlier release's key, in clear and newer: read, and it signs.
	legacy := clearKey(t, now.Add(time.Minute))
	if err := db.AddSigningKey(ctx, legacy); err != nil {
		t.Fatal(err)
	}
	mixed, err := auth.LoadKeys(ctx, db, secrets, now)
	if err != nil || len(mixed.Unsealed) != 1 || mixed.Unsealed[0] != legacy.KID {
		t.Fatalf("LoadKeys with a key in clear: Unsealed %v, %v", mixed, err)
	}
	if anon, _ := mixed.AnonKey(); !strings.Contains(jwtHeader(t, anon), legacy.KID) {
		t.Errorf("the newest key, in clear, does not sign: header %s", jwtHeader(t, anon))
	}

	changed, err := auth.SealSigningKeys(ctx, db, secrets, false)
	if err != nil || len(changed) != 1 || changed[0] != legacy.KID {
		t.Fatalf("SealSigningKeys = %v, %v; want the key in clear", changed, err)
	}
	sealed, err := auth.LoadKeys(ctx, db, secrets, now)
	if err != nil || len(sealed.Unsealed) != 0 || !bytes.Equal(sealed.JWKS(), mixed.JWKS()) {
		t.Fatalf("after sealing: %v, Unsealed %v; JWKS %s, want %s", err, sealed.Unsealed, sealed.JWKS(), mixed.JWKS())
	}
	if changed, err := auth.SealSigningKeys(ctx, db, other, false); err != nil || len(changed) != 0 {
		t.Errorf("sealing again with another key = %v, %v; want nothing to do", changed, err)
	}

	// Unsealing (for a rollback) shows the material the sealed rows hide.
	if _, err := auth.SealSigningKeys(ctx, db, other, true); err == nil {
		t.Error("unsealed with another secret key")
	}
	if changed, err := auth.SealSigningKeys(ctx, db, secrets, true); err != nil || len(changed) != 2 {
		t.Fatalf("unseal = %v, %v", changed, err)
	}
	rows, err := db.ListSigningKeys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range rows {
		if row.KID != first.KID {
			continue
		}
		priv, err := x509.ParsePKCS8PrivateKey(row.PrivateKey)
		if err != nil {
			t.Fatalf("unsealed key: %v", err)
		}
		d := priv.(*ecdsa.PrivateKey).D.FillBytes(make([]byte, 32))
		for name, secret := range map[string][]byte{
			"PKCS #8 DER": row.PrivateKey, "the private scalar": d,
			"the JWK's d": []byte(base64.RawURLEncoding.EncodeToString(d)),
			"PEM":         []byte("PRIVATE KEY"), "PEM body": []byte(base64.StdEncoding.EncodeToString(row.PrivateKey)[:40]),
		} {
			if bytes.Contains(first.PrivateKey, secret) {
				t.Errorf("the sealed row holds %s", name)
			}
		}
	}
}

// onlySigningKeyRow is the one signing key row of db, as stored.
func onlySigningKeyRow(t *testing.T, db *store.DB) staff.SigningKey {
	t.Helper()
	rows, err := db.ListSigningKeys(context.Background())
	if err != nil || len(rows) != 1 {
		t.Fatalf("signing keys: %d, %v", len(rows), err)
	}
	return rows[0]
}

// clearKey is a signing key as releases before --secret-key stored it.
func clearKey(t *testing.T, created time.Time) staff.SigningKey {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return staff.SigningKey{KID: "legacy-key", Algorithm: auth.AlgES256, PrivateKey: der, CreatedAt: created}
}

// jwtHeader is the decoded JOSE header of a JWT.
func jwtHeader(t *testing.T, token string) string {
	t.Helper()
	h, err := base64.RawURLEncoding.DecodeString(strings.Split(token, ".")[0])
	if err != nil {
		t.Fatal(err)
	}
	return string(h)
}
