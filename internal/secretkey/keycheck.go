package secretkey

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Which secret key the store's secrets are sealed with. A server or command
// given another key (an operator who forgot --secret-key, so that a new
// secret.key was made in --data) must not seal anything with it: what it
// sealed would open nowhere else, and a signing key it made would leave
// every other server unable to sign (issue 29). The store keeps one value
// sealed with its key (the check value, written by the first server or
// command that meets a store without one); a key that does not open it is
// not the store's.

// KeyCheckStore is the part of the store that knows its secret key.
type KeyCheckStore interface {
	// SecretKeyCheck returns the check value, nil when there is none.
	SecretKeyCheck(ctx context.Context) ([]byte, error)
	// PutSecretKeyCheck stores sealed as the check value when there is
	// none (with replace, in place of the one there is) and returns the
	// check value stored then.
	PutSecretKeyCheck(ctx context.Context, sealed []byte, replace bool) ([]byte, error)
	// SealedKeyIDs returns the ids of the keys the store's sealed values
	// name (SealedKeyID).
	SealedKeyIDs(ctx context.Context) ([]string, error)
}

// keyCheckLabel binds the check value.
const keyCheckLabel = "secret key check"

// KeyFlags is what an operator gives a server or command its key with.
const KeyFlags = "--secret-key or STUDIO_SECRET_KEY"

// KeyMismatchError is a secret key that is not the one the store's secrets
// are sealed with, or no key given for a store that has one. Its message is
// one line naming both keys' ids and how to give the right key.
type KeyMismatchError struct {
	Store []string // the ids of the store's key (several: values sealed with several)
	Given string   // the id of the key given; "" when none was
	// Looked, when no key was given, is where none was found.
	Looked string
}

func (e *KeyMismatchError) Error() string {
	store := strings.Join(e.Store, ", ")
	if e.Given == "" {
		looked := ""
		if e.Looked != "" {
			looked = " (" + e.Looked + ")"
		}
		return fmt.Sprintf("the store's secrets are sealed with secret key %s and no key was given%s: give it with %s (no new key is made beside them)", store, looked, KeyFlags)
	}
	return fmt.Sprintf("the store's secrets are sealed with secret key %s, but this one is %s: give the servers' key with %s (nothing is sealed with this one)", store, e.Given, KeyFlags)
}

// SealedKeyID returns the id of the key a sealed value names.
func SealedKeyID(stored []byte) (string, bool) {
	if !IsSealed(stored) {
		return "", false
	}
	id, _, ok := strings.Cut(strings.TrimPrefix(string(stored), sealedPrefix), ":")
	return id, ok && id != ""
}

// StoreKeyIDs returns the ids of the key the store's secrets are sealed
// with: the check value's, else those its sealed values name; none for a
// store without secrets.
func StoreKeyIDs(ctx context.Context, st KeyCheckStore) ([]string, error) {
	check, err := st.SecretKeyCheck(ctx)
	if err != nil {
		return nil, err
	}
	if id, ok := SealedKeyID(check); ok {
		return []string{id}, nil
	}
	return st.SealedKeyIDs(ctx)
}

// CheckSecretKey returns nil when key is the store's: the check value opens
// with it, or, in a store without one, no sealed value or one sealed with
// key (then key's check value is stored). Otherwise *KeyMismatchError.
func CheckSecretKey(ctx context.Context, st KeyCheckStore, key *SecretKey) error {
	check, err := st.SecretKeyCheck(ctx)
	if err != nil {
		return err
	}
	if len(check) == 0 {
		ids, err := st.SealedKeyIDs(ctx)
		if err != nil {
			return err
		}
		if len(ids) > 0 && !slices.Contains(ids, key.ID()) {
			return &KeyMismatchError{Store: ids, Given: key.ID()}
		}
		mine, err := key.seal0([]byte(keyCheckLabel), keyCheckLabel)
		if err != nil {
			return err
		}
		// Another server may have stored its own meanwhile: the one stored
		// decides.
		if check, err = st.PutSecretKeyCheck(ctx, mine, false); err != nil {
			return err
		}
	}
	if _, err := key.Open(check, keyCheckLabel); err != nil {
		id, _ := SealedKeyID(check)
		return &KeyMismatchError{Store: []string{id}, Given: key.ID()}
	}
	return nil
}

// ClaimSecretKey makes key the store's, whatever key was before: for
// "studio keys drop-unreadable", once what the lost key sealed is gone.
func ClaimSecretKey(ctx context.Context, st KeyCheckStore, key *SecretKey) error {
	mine, err := key.seal0([]byte(keyCheckLabel), keyCheckLabel)
	if err != nil {
		return err
	}
	_, err = st.PutSecretKeyCheck(ctx, mine, true)
	return err
}

// IsKeyMismatch reports whether err is, or wraps, a *KeyMismatchError.
func IsKeyMismatch(err error) bool {
	var m *KeyMismatchError
	return errors.As(err, &m)
}
