package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"studio/internal/staff"
	"studio/internal/store/storetest"
)

func session(id, userID string, at time.Time) staff.Session {
	return staff.Session{ID: id, UserID: userID, CreatedAt: at, RefreshedAt: at, AAL: "aal1",
		AMR: []staff.AMREntry{{Method: "otp", Timestamp: at.Unix()}}}
}

func testRefresh(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	ada := member("00000000-0000-4000-8000-000000000001", "ada@studio.test")
	mustAddUser(t, db, ada)
	s := session("10000000-0000-4000-8000-000000000001", ada.ID, t0)
	if err := db.StartSession(ctx, s, "rt0", staff.AuditEntry{At: t0, Action: staff.ActionLogin}); err != nil {
		t.Fatal(err)
	}
	got, err := db.FindSession(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(s, got); diff != "" {
		t.Errorf("FindSession (-want +got):\n%s", diff)
	}
	u, _ := db.FindUserByID(ctx, ada.ID)
	if u.LastSignInAt == nil || !u.LastSignInAt.Equal(t0) || u.EmailConfirmedAt == nil {
		t.Errorf("after sign-in user = %+v, want last_sign_in_at and email_confirmed_at set", u)
	}
	grace := 10 * time.Second
	steps := []struct {
		name     string
		old, new string
		at       time.Time
		want     error
	}{
		{"rotate", "rt0", "rt1", t0.Add(time.Minute), nil},
		{"unknown token", "nope", "x", t0.Add(time.Minute), staff.ErrRefreshTokenNotFound},
		{"reuse within grace gets a child", "rt0", "rt1b", t0.Add(time.Minute + 5*time.Second), nil},
		{"the new token rotates", "rt1", "rt2", t0.Add(2 * time.Minute), nil},
		{"reuse after grace ends the session", "rt0", "rt3", t0.Add(3 * time.Minute), staff.ErrRefreshTokenReused},
		{"then every token of it is gone", "rt2", "rt4", t0.Add(3 * time.Minute), staff.ErrRefreshTokenNotFound},
	}
	for _, st := range steps {
		sess, user, err := db.RefreshSession(ctx, st.old, st.new, st.at, grace, anySession)
		if !errors.Is(err, st.want) && err != st.want {
			t.Fatalf("%s: err = %v, want %v", st.name, err, st.want)
		}
		if err == nil && (sess.ID != s.ID || user.ID != ada.ID || !sess.RefreshedAt.Equal(st.at)) {
			t.Errorf("%s: session %+v user %+v", st.name, sess, user)
		}
	}
	if _, err := db.FindSession(ctx, s.ID); !errors.Is(err, staff.ErrSessionNotFound) {
		t.Errorf("after reuse FindSession err = %v, want ErrSessionNotFound", err)
	}
}

func testEndSessions(t *testing.T, engine storetest.Engine) {
	ctx := context.Background()
	ada := member("00000000-0000-4000-8000-000000000001", "ada@studio.test")
	bob := member("00000000-0000-4000-8000-000000000002", "bob@studio.test")
	tests := []struct {
		scope staff.LogoutScope
		want  []string // ada's sessions left, of a, b, c (signing out from b); bob's stays
	}{
		{staff.ScopeLocal, []string{"a", "c"}},
		{staff.ScopeOthers, []string{"b"}},
		{staff.ScopeGlobal, nil},
	}
	for _, tt := range tests {
		t.Run(string(tt.scope), func(t *testing.T) {
			db := engine.New(t)
			mustAddUser(t, db, ada)
			mustAddUser(t, db, bob)
			for _, id := range []string{"a", "b", "c"} {
				if err := db.StartSession(ctx, session(id, ada.ID, t0), "rt-"+id, staff.AuditEntry{}); err != nil {
					t.Fatal(err)
				}
			}
			if err := db.StartSession(ctx, session("bob1", bob.ID, t0), "rt-bob", staff.AuditEntry{}); err != nil {
				t.Fatal(err)
			}
			if err := db.EndSessions(ctx, ada.ID, "b", tt.scope, staff.AuditEntry{At: t0, Action: staff.ActionLogout}); err != nil {
				t.Fatal(err)
			}
			var left []string
			for _, id := range []string{"a", "b", "c"} {
				if _, err := db.FindSession(ctx, id); err == nil {
					left = append(left, id)
				} else if _, _, err := db.RefreshSession(ctx, "rt-"+id, "new-"+id, t0, time.Second, anySession); !errors.Is(err, staff.ErrRefreshTokenNotFound) {
					t.Errorf("refresh token of ended session %s: err = %v", id, err)
				}
			}
			if diff := cmp.Diff(tt.want, left); diff != "" {
				t.Errorf("sessions left (-want +got):\n%s", diff)
			}
			if _, err := db.FindSession(ctx, "bob1"); err != nil {
				t.Errorf("bob's session: %v", err)
			}
		})
	}
}

// anySession is RefreshSession's check that lets every session refresh.
func anySession(staff.Session) error { return nil }
