package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"studio/internal/staff"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

func member(id, email string) staff.User {
	return staff.User{ID: id, Email: email, UserMetadata: map[string]any{"name": "Ada"}, CreatedAt: t0, UpdatedAt: t0}
}

func mustAddUser(t *testing.T, db *store.DB, u staff.User) {
	t.Helper()
	if err := db.CreateUser(context.Background(), u, staff.AuditEntry{At: t0, Action: staff.ActionStaffAdded, Email: u.Email}); err != nil {
		t.Fatal(err)
	}
}

func testUsers(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	ada := member("00000000-0000-4000-8000-000000000001", "ada@studio.test")
	bob := member("00000000-0000-4000-8000-000000000002", "bob@studio.test")
	bob.UserMetadata = map[string]any{}
	mustAddUser(t, db, bob)
	mustAddUser(t, db, ada)
	if err := db.CreateUser(ctx, member("other-id", "ada@studio.test"), staff.AuditEntry{}); !errors.Is(err, staff.ErrExists) {
		t.Errorf("second ada: err = %v, want ErrExists", err)
	}
	got, err := db.ListUsers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]staff.User{ada, bob}, got); diff != "" {
		t.Errorf("ListUsers (-want +got):\n%s", diff)
	}
	if u, err := db.FindUserByEmail(ctx, "ada@studio.test"); err != nil || u.ID != ada.ID || u.Name() != "Ada" {
		t.Errorf("FindUserByEmail = %+v, %v", u, err)
	}
	if u, err := db.FindUserByID(ctx, bob.ID); err != nil || u.Email != bob.Email {
		t.Errorf("FindUserByID = %+v, %v", u, err)
	}
	if _, err := db.FindUserByEmail(ctx, "eve@studio.test"); !errors.Is(err, staff.ErrNotFound) {
		t.Errorf("FindUserByEmail(eve) err = %v, want ErrNotFound", err)
	}
	meta := map[string]any{"theme": "dark", "n": 1.0, "nested": map[string]any{"a": []any{"b"}}}
	if err := db.UpdateUserMetadata(ctx, bob.ID, meta, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if u, err := db.FindUserByID(ctx, bob.ID); err != nil || cmp.Diff(meta, u.UserMetadata) != "" || !u.UpdatedAt.Equal(t0.Add(time.Hour)) {
		t.Errorf("after UpdateUserMetadata = %+v, %v", u, err)
	}
	if err := db.UpdateUserMetadata(ctx, "nobody", meta, t0); !errors.Is(err, staff.ErrNotFound) {
		t.Errorf("UpdateUserMetadata(nobody) err = %v, want ErrNotFound", err)
	}
	audit, err := db.ListAudit(ctx, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if len(audit) != 2 || audit[0].Action != staff.ActionStaffAdded || audit[0].Email != "bob@studio.test" {
		t.Errorf("audit = %+v, want two staff_added", audit)
	}
}

func testRemoveUser(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	ada := member("00000000-0000-4000-8000-000000000001", "ada@studio.test")
	mustAddUser(t, db, ada)
	for _, id := range []string{"a", "b"} {
		if err := db.StartSession(ctx, session(id, ada.ID, t0), "rt-"+id, staff.AuditEntry{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.CreateCode(ctx, code(ada.ID, "c", "l", t0), staff.AuditEntry{}); err != nil {
		t.Fatal(err)
	}
	removed, err := db.RemoveUser(ctx, ada.Email, staff.AuditEntry{At: t0, Action: staff.ActionStaffRemoved, Email: ada.Email})
	if err != nil || removed.ID != ada.ID {
		t.Fatalf("RemoveUser = %+v, %v", removed, err)
	}
	for _, id := range []string{"a", "b"} {
		if _, err := db.FindSession(ctx, id); !errors.Is(err, staff.ErrSessionNotFound) {
			t.Errorf("session %s after removal: err = %v", id, err)
		}
	}
	if _, err := db.RemoveUser(ctx, ada.Email, staff.AuditEntry{}); !errors.Is(err, staff.ErrNotFound) {
		t.Errorf("removing twice: err = %v, want ErrNotFound", err)
	}
	// The address can be added again, as a new person.
	mustAddUser(t, db, member("00000000-0000-4000-8000-000000000003", ada.Email))
	audit, _ := db.ListAudit(ctx, time.Time{})
	if len(audit) != 3 || audit[1].Action != staff.ActionStaffRemoved || audit[1].UserID != ada.ID {
		t.Errorf("audit = %+v", audit)
	}
}
