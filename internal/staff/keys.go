package staff

import "context"

// KeyStore is the part of Store that keeps signing keys.
type KeyStore interface {
	EnsureSigningKey(ctx context.Context, candidate SigningKey) ([]SigningKey, error)
}

// RotationStore is the part of the store that key rotation uses.
type RotationStore interface {
	ListSigningKeys(ctx context.Context) ([]SigningKey, error)
	AddSigningKey(ctx context.Context, k SigningKey) error
	DeleteSigningKey(ctx context.Context, kid string) error
}

// SealingStore is the part of the store that SealSigningKeys uses.
type SealingStore interface {
	ListSigningKeys(ctx context.Context) ([]SigningKey, error)
	// ReplaceSigningKey stores next as kid's private key if it is still
	// prev, and reports whether it did.
	ReplaceSigningKey(ctx context.Context, kid string, prev, next []byte) (bool, error)
}
