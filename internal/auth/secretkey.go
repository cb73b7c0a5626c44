package auth

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// SecretKey seals the TOTP secrets kept in the store with AES-256-GCM, so a
// copy of the database alone does not give anyone a member of staff's
// second factor. Each sealed secret is bound to its factor's id.
type SecretKey struct {
	aead cipher.AEAD
	id   string // names the key in sealed values: a hash prefix, not the key
}

// MFAKeyFile is the file in --data that holds the key the binary made, when
// the operator supplied none.
const MFAKeyFile = "mfa.key"

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
	sum := sha256.Sum256(append([]byte("studio mfa key id\x00"), b...))
	return &SecretKey{aead: aead, id: hex.EncodeToString(sum[:4])}, nil
}

// LoadOrCreateSecretKey reads the key of MFAKeyFile in dir, or makes one
// there (mode 0600) when there is none. Servers sharing dir share the key;
// servers on one PostgreSQL in different places must be given one key.
func LoadOrCreateSecretKey(dir string) (key *SecretKey, created bool, err error) {
	path := filepath.Join(dir, MFAKeyFile)
	if b, err := os.ReadFile(path); err == nil {
		k, err := ParseSecretKey(string(b))
		if err != nil {
			return nil, false, fmt.Errorf("%s: %w", path, err)
		}
		return k, false, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, false, err
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, false, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, false, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return LoadOrCreateSecretKey(dir) // another server made it just now
	}
	if err != nil {
		return nil, false, err
	}
	_, werr := f.WriteString(base64.StdEncoding.EncodeToString(raw) + "\n")
	if err := errors.Join(werr, f.Sync(), f.Close()); err != nil {
		return nil, false, err
	}
	k, err := newSecretKey(raw)
	return k, true, err
}

// sealedPrefix starts every sealed value: the format and the key's id.
const sealedPrefix = "aes-gcm:"

// seal encrypts plain, bound to context (the factor id).
func (k *SecretKey) seal(plain, context string) (string, error) {
	nonce := make([]byte, k.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	box := k.aead.Seal(nonce, nonce, []byte(plain), []byte(context))
	return sealedPrefix + k.id + ":" + base64.RawStdEncoding.EncodeToString(box), nil
}

// open decrypts what seal made with the same key and context.
func (k *SecretKey) open(sealed, context string) (string, error) {
	id, data, ok := strings.Cut(strings.TrimPrefix(sealed, sealedPrefix), ":")
	if !strings.HasPrefix(sealed, sealedPrefix) || !ok {
		return "", errors.New("not a sealed TOTP secret")
	}
	if id != k.id {
		return "", fmt.Errorf("TOTP secret sealed with MFA key %s, but this server has key %s (--mfa-key)", id, k.id)
	}
	box, err := base64.RawStdEncoding.DecodeString(data)
	if err != nil || len(box) < k.aead.NonceSize() {
		return "", errors.New("sealed TOTP secret is damaged")
	}
	plain, err := k.aead.Open(nil, box[:k.aead.NonceSize()], box[k.aead.NonceSize():], []byte(context))
	if err != nil {
		return "", errors.New("sealed TOTP secret does not open with this server's MFA key")
	}
	return string(plain), nil
}
