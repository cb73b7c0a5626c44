package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"studio/internal/staff"
	"studio/internal/store/storetest"
)

func testSigningKey(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	first := staff.SigningKey{KID: "k1", Algorithm: "ES256", PrivateKey: []byte{1, 2, 3, 0, 255}, CreatedAt: t0}
	second := staff.SigningKey{KID: "k2", Algorithm: "ES256", PrivateKey: []byte{9}, CreatedAt: t0.Add(time.Hour)}
	for _, candidate := range []staff.SigningKey{first, second} {
		keys, err := db.EnsureSigningKey(ctx, candidate)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]staff.SigningKey{first}, keys); diff != "" {
			t.Errorf("keys after offering %s (-want +got):\n%s", candidate.KID, diff)
		}
	}
	if err := db.AddSigningKey(ctx, second); err != nil {
		t.Fatal(err)
	}
	if keys, err := db.ListSigningKeys(ctx); err != nil || cmp.Diff([]staff.SigningKey{second, first}, keys) != "" {
		t.Errorf("ListSigningKeys = %+v, %v; want the newest first", keys, err)
	}
	if err := db.DeleteSigningKey(ctx, first.KID); err != nil {
		t.Fatal(err)
	}
	if keys, err := db.ListSigningKeys(ctx); err != nil || cmp.Diff([]staff.SigningKey{second}, keys) != "" {
		t.Errorf("after DeleteSigningKey = %+v, %v", keys, err)
	}
}
