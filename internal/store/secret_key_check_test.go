package store_test

import (
	"context"
	"strings"
	"testing"

	"studio/internal/auth"
	"studio/internal/secretkey"
	"studio/internal/store/storetest"
)

// TestSecretKeyCheck: the store learns its secret key from the first key
// checked against it, or, in a store an earlier release sealed values in,
// from those values; another key is then refused (naming both), until
// ClaimSecretKey (keys drop-unreadable) makes another the store's.
func TestSecretKeyCheck(t *testing.T) {
	ctx := context.Background()
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			k1, _ := secretkey.NewRandomSecretKey()
			k2, _ := secretkey.NewRandomSecretKey()
			mismatch := func(err error, ids ...string) {
				t.Helper()
				if !secretkey.IsKeyMismatch(err) {
					t.Fatalf("err = %v, want a key mismatch", err)
				}
				for _, id := range ids {
					if !strings.Contains(err.Error(), id) {
						t.Errorf("%q does not name key %s", err, id)
					}
				}
			}

			db := engine.New(t)
			if ids, err := secretkey.StoreKeyIDs(ctx, db); err != nil || len(ids) != 0 {
				t.Fatalf("a new store's key: %v, %v; want none", ids, err)
			}
			check(t, secretkey.CheckSecretKey(ctx, db, k1))
			check(t, secretkey.CheckSecretKey(ctx, db, k1))
			mismatch(secretkey.CheckSecretKey(ctx, db, k2), k1.ID(), k2.ID())
			if ids, err := secretkey.StoreKeyIDs(ctx, db); err != nil || len(ids) != 1 || ids[0] != k1.ID() {
				t.Errorf("the store's key: %v, %v; want %s", ids, err, k1.ID())
			}
			check(t, secretkey.ClaimSecretKey(ctx, db, k2))
			check(t, secretkey.CheckSecretKey(ctx, db, k2))
			mismatch(secretkey.CheckSecretKey(ctx, db, k1), k1.ID(), k2.ID())

			// No check value, but a signing key sealed with k1.
			db = engine.New(t)
			sk, err := auth.NewSigningKey(t0, k1)
			check(t, err)
			check(t, db.AddSigningKey(ctx, sk))
			mismatch(secretkey.CheckSecretKey(ctx, db, k2), k1.ID(), k2.ID())
			check(t, secretkey.CheckSecretKey(ctx, db, k1))
			mismatch(secretkey.CheckSecretKey(ctx, db, k2), k1.ID(), k2.ID())
		})
	}
}

func check(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
