// Package secretkey is the key-encryption key of the studio's secrets at rest
// (--secret-key): sealing and opening values bound to a label, and the check
// that a store's sealed values are this key's (decision 0012, 0021).
package secretkey

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
)

// SecretKey is the key-encryption key (--secret-key) that seals the secrets
// kept in the store with AES-256-GCM: the TOTP secrets, the ES256 signing
// keys and the ACME account and certificate keys. A copy of the database
// alone then gives nobody a second factor, a token signer or a TLS key.
// Each sealed value is bound to a label naming what it is (a factor's id, a
// signing key's kid), so it does not open when moved to another row.
type SecretKey struct {
	aead   cipher.AEAD
	id     string   // names the key in sealed values: a hash prefix, not the key
	derive [32]byte // the root of the keys Derive gives, not the key itself
	// refusal, when set, is why Seal refuses: the store's secrets are
	// sealed with another key (RefuseToSeal).
	refusal atomic.Pointer[error]
}

// RefuseToSeal makes Seal fail with why from now on (nil: seal again). A
// server whose key is not the store's (CheckSecretKey) seals nothing: what
// it sealed would open on no other server.
func (k *SecretKey) RefuseToSeal(why error) {
	if why == nil {
		k.refusal.Store(nil)
		return
	}
	k.refusal.Store(&why)
}

// SecretKeyFile is the file in --data that holds the key the binary made,
// when the operator supplied none. LegacyKeyFile is the name releases
// before --secret-key gave it; it is read when SecretKeyFile is absent.
const (
	SecretKeyFile = "secret.key"
	LegacyKeyFile = "mfa.key"
)

// ParseSecretKey reads a key given as 32 bytes in base64 (openssl rand
// -base64 32) or in hex.
func ParseSecretKey(s string) (*SecretKey, error) {
	s = strings.TrimSpace(s)
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b) != 32 {
		if b, err = hex.DecodeString(s); err != nil || len(b) != 32 {
			return nil, errors.New("want 32 bytes in base64 (openssl rand -base64 32) or hex")
		}
	}
	return newSecretKey(b)
}

// NewRandomSecretKey returns a new random key.
func NewRandomSecretKey() (*SecretKey, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	return newSecretKey(b)
}

func newSecretKey(b []byte) (*SecretKey, error) {
	block, err := aes.NewCipher(b)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	// The label predates the key's wider use; values sealed since carry
	// the id it gives, so it stays.
	sum := sha256.Sum256(append([]byte("studio mfa key id\x00"), b...))
	return &SecretKey{aead: aead, id: hex.EncodeToString(sum[:4]),
		derive: sha256.Sum256(append([]byte("studio derived keys\x00"), b...))}, nil
}

// Derive returns a 32-byte key for one use, named by label (such as the
// signing of storage URLs): the same on every server with this key, and
// telling nothing of it or of the keys of other labels.
func (k *SecretKey) Derive(label string) []byte {
	m := hmac.New(sha256.New, k.derive[:])
	m.Write([]byte(label))
	return m.Sum(nil)
}

// ID names the key (a hash prefix, safe to log): sealed values carry it.
func (k *SecretKey) ID() string { return k.id }

// LoadSecretKey reads the key file in dir: SecretKeyFile, else
// LegacyKeyFile. It returns the file's path, and an error that is
// os.ErrNotExist when there is neither.
func LoadSecretKey(dir string) (key *SecretKey, path string, err error) {
	for _, name := range []string{SecretKeyFile, LegacyKeyFile} {
		path = filepath.Join(dir, name)
		b, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, path, err
		}
		k, err := ParseSecretKey(string(b))
		if err != nil {
			return nil, path, fmt.Errorf("%s: %w", path, err)
		}
		return k, path, nil
	}
	return nil, filepath.Join(dir, SecretKeyFile), fmt.Errorf("no %s or %s in %s: %w", SecretKeyFile, LegacyKeyFile, dir, os.ErrNotExist)
}

// LoadOrCreateSecretKey is LoadSecretKey that makes SecretKeyFile (mode
// 0600) in dir when there is no key file, and says whether it did. Servers
// sharing dir share the key; servers on one PostgreSQL in different places
// must be given one key.
func LoadOrCreateSecretKey(dir string) (key *SecretKey, path string, created bool, err error) {
	key, path, err = LoadSecretKey(dir)
	if !errors.Is(err, os.ErrNotExist) {
		return key, path, false, err
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, path, false, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, path, false, err
	}
	// Written whole under a temporary name, then linked into place: a
	// server starting at the same moment finds no file or the whole key.
	f, err := os.CreateTemp(dir, SecretKeyFile+".*")
	if err != nil {
		return nil, path, false, err
	}
	defer os.Remove(f.Name())
	_, werr := f.WriteString(base64.StdEncoding.EncodeToString(raw) + "\n")
	if err := errors.Join(werr, f.Sync(), f.Close()); err != nil {
		return nil, path, false, err
	}
	if err := os.Link(f.Name(), path); errors.Is(err, os.ErrExist) {
		return LoadOrCreateSecretKey(dir) // another server made it just now
	} else if err != nil {
		return nil, path, false, err
	}
	k, err := newSecretKey(raw)
	return k, path, true, err
}

// sealedPrefix starts every sealed value: the format, then the key's id.
const sealedPrefix = "aes-gcm:"

// IsSealed reports whether a value read from the store is sealed; one that
// is not was stored in clear by a release before --secret-key sealed it.
func IsSealed(stored []byte) bool { return bytes.HasPrefix(stored, []byte(sealedPrefix)) }

// Seal encrypts plain for the store, bound to label; it fails while the key
// refuses to seal (RefuseToSeal).
func (k *SecretKey) Seal(plain []byte, label string) ([]byte, error) {
	if why := k.refusal.Load(); why != nil {
		return nil, *why
	}
	return k.seal0(plain, label)
}

// seal0 is Seal, refusal or not.
func (k *SecretKey) seal0(plain []byte, label string) ([]byte, error) {
	nonce := make([]byte, k.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	box := k.aead.Seal(nonce, nonce, plain, []byte(label))
	return []byte(sealedPrefix + k.id + ":" + base64.RawStdEncoding.EncodeToString(box)), nil
}

// Open decrypts what Seal made with the same key and label. It fails on a
// value sealed with another key (naming both keys' ids), on a damaged one
// and on one that is not sealed.
func (k *SecretKey) Open(sealed []byte, label string) ([]byte, error) {
	id, data, ok := strings.Cut(strings.TrimPrefix(string(sealed), sealedPrefix), ":")
	if !IsSealed(sealed) || !ok {
		return nil, errors.New("not a sealed value")
	}
	if id != k.id {
		return nil, fmt.Errorf("sealed with secret key %s, but this server has key %s (--secret-key)", id, k.id)
	}
	box, err := base64.RawStdEncoding.DecodeString(data)
	if err != nil || len(box) < k.aead.NonceSize() {
		return nil, errors.New("sealed value is damaged")
	}
	plain, err := k.aead.Open(nil, box[:k.aead.NonceSize()], box[k.aead.NonceSize():], []byte(label))
	if err != nil {
		return nil, errors.New("sealed value does not open with this server's secret key")
	}
	return plain, nil
}

// SealFactorSecret seals a TOTP secret, bound to its factor's id.
func (k *SecretKey) SealFactorSecret(plain, factorID string) (string, error) {
	sealed, err := k.Seal([]byte(plain), factorID)
	return string(sealed), err
}

// OpenFactorSecret opens a TOTP secret sealed by SealFactorSecret.
func (k *SecretKey) OpenFactorSecret(sealed, factorID string) (string, error) {
	plain, err := k.Open([]byte(sealed), factorID)
	if err != nil {
		return "", fmt.Errorf("TOTP secret: %w", err)
	}
	return string(plain), nil
}
