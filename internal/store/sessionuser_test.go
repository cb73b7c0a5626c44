package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"studio/internal/staff"
	"studio/internal/store/storetest"
)

// testSessionUser: the one read of a session (FindSessionUser, and the
// refresh grant's) brings its user whole: each factor and each identity
// once, oldest first, however many of each; and a user with none has none.
func testSessionUser(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	ada := member(adaID, "ada@studio.test")
	mustAddUser(t, db, ada)
	start := func(id string) {
		t.Helper()
		sess := staff.Session{ID: id, UserID: ada.ID, CreatedAt: t0, RefreshedAt: t0, AAL: staff.AAL1, AMR: []staff.AMREntry{{Method: "otp", Timestamp: t0.Unix()}}}
		if err := db.StartSession(ctx, sess, "refresh-"+id, staff.AuditEntry{At: t0, Action: staff.ActionLogin}); err != nil {
			t.Fatal(err)
		}
	}
	const first, second = "10000000-0000-4000-8000-000000000001", "10000000-0000-4000-8000-000000000002"
	start(first)
	if _, u, err := db.FindSessionUser(ctx, first); err != nil || u.ID != ada.ID || u.Email != ada.Email || u.Factors != nil || u.Identities != nil {
		t.Errorf("a user without factors or identities: %+v, %v", u, err)
	}

	var factors []staff.Factor
	var identities []staff.Identity
	for i := range 3 {
		at := t0.Add(time.Duration(i) * time.Minute)
		f := staff.Factor{ID: fmt.Sprintf("20000000-0000-4000-8000-00000000000%d", i), UserID: ada.ID, FriendlyName: fmt.Sprintf("key %d", i),
			FactorType: staff.FactorTOTP, Status: staff.FactorVerified, Secret: "sealed", CreatedAt: at, UpdatedAt: at}
		if err := db.CreateFactor(ctx, f, at, func([]staff.Factor) error { return nil }, staff.AuditEntry{At: at}); err != nil {
			t.Fatal(err)
		}
		f.Secret = "" // not read with the session
		factors = append(factors, f)
		if i == 2 {
			break // more factors than identities
		}
		id := staff.Identity{ID: fmt.Sprintf("30000000-0000-4000-8000-00000000000%d", i), UserID: ada.ID, Provider: "keycloak",
			Subject: fmt.Sprintf("sub-%d", i), Email: ada.Email, Data: map[string]any{"sub": fmt.Sprintf("sub-%d", i)},
			CreatedAt: at, UpdatedAt: at, LastSignInAt: &at}
		if err := db.SaveIdentity(ctx, id, &staff.Link{}, staff.AuditEntry{At: at, Action: staff.ActionIdentityLinked}); err != nil {
			t.Fatal(err)
		}
		identities = append(identities, id)
	}
	start(second)
	want := func(what string, u staff.User) {
		t.Helper()
		times := cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })
		if diff := cmp.Diff(factors, u.Factors, times); diff != "" {
			t.Errorf("%s: factors (-want +got):\n%s", what, diff)
		}
		if diff := cmp.Diff(identities, u.Identities, times); diff != "" {
			t.Errorf("%s: identities (-want +got):\n%s", what, diff)
		}
	}
	sess, u, err := db.FindSessionUser(ctx, first)
	if err != nil || sess.ID != first || u.ID != ada.ID || u.UserMetadata["name"] != "Ada" {
		t.Fatalf("FindSessionUser = %+v, %+v, %v", sess, u, err)
	}
	want("FindSessionUser", u)
	sess, u, err = db.RefreshSession(ctx, "refresh-"+second, "refresh-next", t0.Add(time.Hour), time.Second, func(staff.Session) error { return nil })
	if err != nil || sess.ID != second {
		t.Fatalf("RefreshSession = %+v, %v", sess, err)
	}
	want("RefreshSession", u)
}
