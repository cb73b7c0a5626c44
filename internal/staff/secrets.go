package staff

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math/big"
	"time"
)

// The secrets the service hands out (codes, link tokens, refresh tokens)
// are stored only as SHA-256 hashes, each under its own label so that one
// kind's hash can never stand for another's.

// CodeDigits is the length of a sign-in code; MaxCodeTries how many wrong
// codes kill one.
const (
	CodeDigits   = 6
	MaxCodeTries = 5
)

// NewCode makes a one-time sign-in code for the user: the code to type, the
// token_hash the mailed link carries, and what the store keeps of both.
func NewCode(userID, purpose string, now time.Time, expiry time.Duration) (code, tokenHash string, c Code, err error) {
	if code, err = NewCodeDigits(); err != nil {
		return "", "", Code{}, err
	}
	if tokenHash, err = RandomToken(); err != nil {
		return "", "", Code{}, fmt.Errorf("new code: %w", err)
	}
	c = Code{UserID: userID, Purpose: purpose, CodeHash: CodeHash(userID, code), LinkHash: LinkHash(tokenHash),
		CreatedAt: now, ExpiresAt: now.Add(expiry)}
	return code, tokenHash, c, nil
}

// NewCodeDigits returns CodeDigits random digits.
func NewCodeDigits() (string, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return "", fmt.Errorf("new code: %w", err)
	}
	return fmt.Sprintf("%0*d", CodeDigits, n.Int64()), nil
}

// NewRefreshToken returns a new refresh token: 256 random bits.
func NewRefreshToken() (string, error) { return RandomToken() }

// RandomToken returns 256 random bits, base64url-encoded: a token no one can guess.
func RandomToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// CodeHash is what the store keeps of a user's code. The user's id is part
// of it, so equal codes of two people hash differently.
func CodeHash(userID, code string) string { return Hash("code", userID, code) }

// LinkHash is what the store keeps of a link's token_hash.
func LinkHash(tokenHash string) string { return Hash("link", tokenHash) }

// RefreshHash is what the store keeps of a refresh token.
func RefreshHash(token string) string { return Hash("refresh", token) }

// AddressHash names an e-mail address in the per-address send limit.
func AddressHash(email string) string { return Hash("address", email) }

// Hash is the hex SHA-256 of label and parts, each part after a zero byte:
// what the store keeps in place of a secret (a code, a token, a state).
func Hash(label string, parts ...string) string {
	h := sha256.New()
	h.Write([]byte(label))
	for _, p := range parts {
		h.Write([]byte{0})
		h.Write([]byte(p))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// PhoneHash names a phone number in the per-recipient send limit.
func PhoneHash(phone string) string { return Hash("phone", phone) }

// ChallengeCodeHash is what the store keeps of the code a phone factor's
// challenge sent.
func ChallengeCodeHash(challengeID, code string) string {
	return Hash("challenge code", challengeID, code)
}
