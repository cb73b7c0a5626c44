package store_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"studio/internal/auth"
	"studio/internal/notify"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

// TestAuthStore is the behaviour suite of the staff sign-in state, run
// against both engines.
func TestAuthStore(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			t.Run("staff users", func(t *testing.T) { testUsers(t, engine) })
			t.Run("codes: single use, expiry, tries, replacement", func(t *testing.T) { testCodes(t, engine) })
			t.Run("e-mail sends are limited per address", func(t *testing.T) { testEmailSends(t, engine) })
			t.Run("refresh token rotation and reuse", func(t *testing.T) { testRefresh(t, engine) })
			t.Run("sign-out scopes", func(t *testing.T) { testEndSessions(t, engine) })
			t.Run("removing a user ends their sessions", func(t *testing.T) { testRemoveUser(t, engine) })
			t.Run("the first signing key is kept", func(t *testing.T) { testSigningKey(t, engine) })
			t.Run("PKCE codes", func(t *testing.T) { testPKCE(t, engine) })
			t.Run("e-mail change codes", func(t *testing.T) { testEmailChange(t, engine) })
		})
	}
}

func staff(id, email string) auth.User {
	return auth.User{ID: id, Email: email, UserMetadata: map[string]any{"name": "Ada"}, CreatedAt: t0, UpdatedAt: t0}
}

func mustAddUser(t *testing.T, db *store.DB, u auth.User) {
	t.Helper()
	if err := db.CreateUser(context.Background(), u, auth.AuditEntry{At: t0, Action: auth.ActionStaffAdded, Email: u.Email}); err != nil {
		t.Fatal(err)
	}
}

func testUsers(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	ada := staff("00000000-0000-4000-8000-000000000001", "ada@studio.test")
	bob := staff("00000000-0000-4000-8000-000000000002", "bob@studio.test")
	bob.UserMetadata = map[string]any{}
	mustAddUser(t, db, bob)
	mustAddUser(t, db, ada)
	if err := db.CreateUser(ctx, staff("other-id", "ada@studio.test"), auth.AuditEntry{}); !errors.Is(err, auth.ErrExists) {
		t.Errorf("second ada: err = %v, want ErrExists", err)
	}
	got, err := db.ListUsers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]auth.User{ada, bob}, got); diff != "" {
		t.Errorf("ListUsers (-want +got):\n%s", diff)
	}
	if u, err := db.FindUserByEmail(ctx, "ada@studio.test"); err != nil || u.ID != ada.ID || u.Name() != "Ada" {
		t.Errorf("FindUserByEmail = %+v, %v", u, err)
	}
	if u, err := db.FindUserByID(ctx, bob.ID); err != nil || u.Email != bob.Email {
		t.Errorf("FindUserByID = %+v, %v", u, err)
	}
	if _, err := db.FindUserByEmail(ctx, "eve@studio.test"); !errors.Is(err, auth.ErrNotFound) {
		t.Errorf("FindUserByEmail(eve) err = %v, want ErrNotFound", err)
	}
	meta := map[string]any{"theme": "dark", "n": 1.0, "nested": map[string]any{"a": []any{"b"}}}
	if err := db.UpdateUserMetadata(ctx, bob.ID, meta, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if u, err := db.FindUserByID(ctx, bob.ID); err != nil || cmp.Diff(meta, u.UserMetadata) != "" || !u.UpdatedAt.Equal(t0.Add(time.Hour)) {
		t.Errorf("after UpdateUserMetadata = %+v, %v", u, err)
	}
	if err := db.UpdateUserMetadata(ctx, "nobody", meta, t0); !errors.Is(err, auth.ErrNotFound) {
		t.Errorf("UpdateUserMetadata(nobody) err = %v, want ErrNotFound", err)
	}
	audit, err := db.ListAudit(ctx, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if len(audit) != 2 || audit[0].Action != auth.ActionStaffAdded || audit[0].Email != "bob@studio.test" {
		t.Errorf("audit = %+v, want two staff_added", audit)
	}
}

func code(userID, codeHash, linkHash string, at time.Time) auth.Code {
	return auth.Code{UserID: userID, Purpose: auth.PurposeSignIn, CodeHash: codeHash, LinkHash: linkHash, CreatedAt: at, ExpiresAt: at.Add(10 * time.Minute)}
}

func testCodes(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	ada := staff("00000000-0000-4000-8000-000000000001", "ada@studio.test")
	mustAddUser(t, db, ada)
	consume := func(hash string, at time.Time) error {
		return db.ConsumeCode(ctx, ada.ID, auth.PurposeSignIn, hash, at, 5, auth.AuditEntry{})
	}
	if err := consume("right", t0); !errors.Is(err, auth.ErrCodeInvalid) {
		t.Errorf("no code yet: err = %v, want ErrCodeInvalid", err)
	}
	if err := db.CreateCode(ctx, code(ada.ID, "right", "link1", t0), auth.AuditEntry{}); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name string
		hash string
		at   time.Time
		want error
	}{
		{"wrong code", "wrong", t0.Add(time.Second), auth.ErrCodeInvalid},
		{"right code", "right", t0.Add(2 * time.Second), nil},
		{"used twice", "right", t0.Add(3 * time.Second), auth.ErrCodeInvalid},
	}
	for _, s := range steps {
		if err := consume(s.hash, s.at); !errors.Is(err, s.want) && err != s.want {
			t.Errorf("%s: err = %v, want %v", s.name, err, s.want)
		}
	}

	// Expired.
	if err := db.CreateCode(ctx, code(ada.ID, "right", "link2", t0), auth.AuditEntry{}); err != nil {
		t.Fatal(err)
	}
	if err := consume("right", t0.Add(10*time.Minute)); !errors.Is(err, auth.ErrCodeInvalid) {
		t.Errorf("expired: err = %v, want ErrCodeInvalid", err)
	}

	// Dead after five wrong tries, even for the right code.
	if err := db.CreateCode(ctx, code(ada.ID, "right", "link3", t0), auth.AuditEntry{}); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if err := consume(fmt.Sprint("wrong", i), t0); !errors.Is(err, auth.ErrCodeInvalid) {
			t.Fatalf("wrong try %d: %v", i, err)
		}
	}
	if err := consume("right", t0); !errors.Is(err, auth.ErrCodeInvalid) {
		t.Errorf("after five wrong tries: err = %v, want ErrCodeInvalid", err)
	}
	if _, err := db.ConsumeLink(ctx, "link3", auth.PurposeSignIn, t0, 5); !errors.Is(err, auth.ErrCodeInvalid) {
		t.Errorf("link after five wrong tries: err = %v, want ErrCodeInvalid", err)
	}

	// By address: the user's code, or nothing for an address that is not
	// staff's; match sees the user and the stored hash.
	if err := db.CreateCode(ctx, code(ada.ID, "right", "link4", t0), auth.AuditEntry{}); err != nil {
		t.Fatal(err)
	}
	byEmail := func(email, hash string) (string, error) {
		return db.ConsumeCodeByEmail(ctx, email, auth.PurposeSignIn, t0, 5,
			func(userID, stored string) bool { return userID == ada.ID && stored == hash }, auth.AuditEntry{})
	}
	if _, err := byEmail("eve@studio.test", "right"); !errors.Is(err, auth.ErrCodeInvalid) {
		t.Errorf("by an address that is not staff's: err = %v, want ErrCodeInvalid", err)
	}
	if _, err := byEmail(ada.Email, "wrong"); !errors.Is(err, auth.ErrCodeInvalid) {
		t.Errorf("wrong code by address: err = %v, want ErrCodeInvalid", err)
	}
	if id, err := byEmail(ada.Email, "right"); err != nil || id != ada.ID {
		t.Errorf("ConsumeCodeByEmail = %q, %v", id, err)
	}
	if _, err := byEmail(ada.Email, "right"); !errors.Is(err, auth.ErrCodeInvalid) {
		t.Errorf("used twice by address: err = %v, want ErrCodeInvalid", err)
	}

	// A new code replaces the old one; its link works once.
	if err := db.CreateCode(ctx, code(ada.ID, "old", "link-old", t0), auth.AuditEntry{}); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateCode(ctx, code(ada.ID, "new", "link-new", t0), auth.AuditEntry{}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ConsumeLink(ctx, "link-old", auth.PurposeSignIn, t0, 5); !errors.Is(err, auth.ErrCodeInvalid) {
		t.Errorf("replaced link: err = %v, want ErrCodeInvalid", err)
	}
	if _, err := db.ConsumeLink(ctx, "link-new", auth.PurposeRecovery, t0.Add(time.Minute), 5); !errors.Is(err, auth.ErrCodeInvalid) {
		t.Errorf("link of another purpose: err = %v, want ErrCodeInvalid", err)
	}
	userID, err := db.ConsumeLink(ctx, "link-new", auth.PurposeSignIn, t0.Add(time.Minute), 5)
	if err != nil || userID != ada.ID {
		t.Errorf("ConsumeLink = %q, %v", userID, err)
	}
	if err := consume("new", t0.Add(time.Minute)); !errors.Is(err, auth.ErrCodeInvalid) {
		t.Errorf("code of a used link: err = %v, want ErrCodeInvalid", err)
	}
	if _, err := db.ConsumeLink(ctx, "link-new", auth.PurposeSignIn, t0.Add(time.Minute), 5); !errors.Is(err, auth.ErrCodeInvalid) {
		t.Errorf("link used twice: err = %v, want ErrCodeInvalid", err)
	}
}

func testEmailSends(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	ada := staff("00000000-0000-4000-8000-000000000001", "ada@studio.test")
	mustAddUser(t, db, ada)
	mail := &notify.Email{From: "site@studio.test", To: []string{ada.Email}, Subject: "Your sign-in code", Body: "123456"}
	c := code(ada.ID, "h", "l", t0)
	if _, err := db.ClaimEmailSend(ctx, "ada-hash", t0, time.Minute, &c, mail, auth.AuditEntry{At: t0, Action: auth.ActionCodeIssued}); err != nil {
		t.Fatal(err)
	}
	retry, err := db.ClaimEmailSend(ctx, "ada-hash", t0.Add(20*time.Second), time.Minute, &c, mail, auth.AuditEntry{})
	if !errors.Is(err, auth.ErrEmailSendRateExceeded) || retry != 40*time.Second {
		t.Errorf("second within a minute: retry %v, err %v; want 40s, ErrEmailSendRateExceeded", retry, err)
	}
	// Another address (someone who is not staff: no code, no mail) is not held up.
	if _, err := db.ClaimEmailSend(ctx, "eve-hash", t0.Add(20*time.Second), time.Minute, nil, nil, auth.AuditEntry{}); err != nil {
		t.Errorf("other address: %v", err)
	}
	if _, err := db.ClaimEmailSend(ctx, "eve-hash", t0.Add(30*time.Second), time.Minute, nil, nil, auth.AuditEntry{}); !errors.Is(err, auth.ErrEmailSendRateExceeded) {
		t.Errorf("non-staff address twice: err = %v, want ErrEmailSendRateExceeded", err)
	}
	c2 := code(ada.ID, "h2", "l2", t0.Add(time.Minute))
	if _, err := db.ClaimEmailSend(ctx, "ada-hash", t0.Add(time.Minute), time.Minute, &c2, mail, auth.AuditEntry{}); err != nil {
		t.Errorf("after a minute: %v", err)
	}
	outbox, err := db.ListOutbox(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(outbox) != 2 || outbox[0].Subject != "Your sign-in code" || outbox[0].ContactMessageID != "" {
		t.Errorf("outbox = %+v, want two sign-in mails", outbox)
	}
	// QueueCode: a code and its mail without a claim (the claim was made
	// before the answer).
	c3 := code(ada.ID, "h3", "l3", t0.Add(time.Minute))
	if err := db.QueueCode(ctx, c3, mail, auth.AuditEntry{}); err != nil {
		t.Fatal(err)
	}
	if outbox, err = db.ListOutbox(ctx); err != nil || len(outbox) != 3 {
		t.Errorf("outbox after QueueCode: %d mails, %v", len(outbox), err)
	}
	if err := db.ConsumeCode(ctx, ada.ID, auth.PurposeSignIn, "h3", t0.Add(time.Minute), 5, auth.AuditEntry{}); err != nil {
		t.Errorf("the mailed code: %v", err)
	}
}

func session(id, userID string, at time.Time) auth.Session {
	return auth.Session{ID: id, UserID: userID, CreatedAt: at, RefreshedAt: at, AAL: "aal1",
		AMR: []auth.AMREntry{{Method: "otp", Timestamp: at.Unix()}}}
}

func testRefresh(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	ada := staff("00000000-0000-4000-8000-000000000001", "ada@studio.test")
	mustAddUser(t, db, ada)
	s := session("10000000-0000-4000-8000-000000000001", ada.ID, t0)
	if err := db.StartSession(ctx, s, "rt0", auth.AuditEntry{At: t0, Action: auth.ActionLogin}); err != nil {
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
		{"unknown token", "nope", "x", t0.Add(time.Minute), auth.ErrRefreshTokenNotFound},
		{"reuse within grace gets a child", "rt0", "rt1b", t0.Add(time.Minute + 5*time.Second), nil},
		{"the new token rotates", "rt1", "rt2", t0.Add(2 * time.Minute), nil},
		{"reuse after grace ends the session", "rt0", "rt3", t0.Add(3 * time.Minute), auth.ErrRefreshTokenReused},
		{"then every token of it is gone", "rt2", "rt4", t0.Add(3 * time.Minute), auth.ErrRefreshTokenNotFound},
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
	if _, err := db.FindSession(ctx, s.ID); !errors.Is(err, auth.ErrSessionNotFound) {
		t.Errorf("after reuse FindSession err = %v, want ErrSessionNotFound", err)
	}
}

func testEndSessions(t *testing.T, engine storetest.Engine) {
	ctx := context.Background()
	ada := staff("00000000-0000-4000-8000-000000000001", "ada@studio.test")
	bob := staff("00000000-0000-4000-8000-000000000002", "bob@studio.test")
	tests := []struct {
		scope auth.LogoutScope
		want  []string // ada's sessions left, of a, b, c (signing out from b); bob's stays
	}{
		{auth.ScopeLocal, []string{"a", "c"}},
		{auth.ScopeOthers, []string{"b"}},
		{auth.ScopeGlobal, nil},
	}
	for _, tt := range tests {
		t.Run(string(tt.scope), func(t *testing.T) {
			db := engine.New(t)
			mustAddUser(t, db, ada)
			mustAddUser(t, db, bob)
			for _, id := range []string{"a", "b", "c"} {
				if err := db.StartSession(ctx, session(id, ada.ID, t0), "rt-"+id, auth.AuditEntry{}); err != nil {
					t.Fatal(err)
				}
			}
			if err := db.StartSession(ctx, session("bob1", bob.ID, t0), "rt-bob", auth.AuditEntry{}); err != nil {
				t.Fatal(err)
			}
			if err := db.EndSessions(ctx, ada.ID, "b", tt.scope, auth.AuditEntry{At: t0, Action: auth.ActionLogout}); err != nil {
				t.Fatal(err)
			}
			var left []string
			for _, id := range []string{"a", "b", "c"} {
				if _, err := db.FindSession(ctx, id); err == nil {
					left = append(left, id)
				} else if _, _, err := db.RefreshSession(ctx, "rt-"+id, "new-"+id, t0, time.Second, anySession); !errors.Is(err, auth.ErrRefreshTokenNotFound) {
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

func testRemoveUser(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	ada := staff("00000000-0000-4000-8000-000000000001", "ada@studio.test")
	mustAddUser(t, db, ada)
	for _, id := range []string{"a", "b"} {
		if err := db.StartSession(ctx, session(id, ada.ID, t0), "rt-"+id, auth.AuditEntry{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.CreateCode(ctx, code(ada.ID, "c", "l", t0), auth.AuditEntry{}); err != nil {
		t.Fatal(err)
	}
	removed, err := db.RemoveUser(ctx, ada.Email, auth.AuditEntry{At: t0, Action: auth.ActionStaffRemoved, Email: ada.Email})
	if err != nil || removed.ID != ada.ID {
		t.Fatalf("RemoveUser = %+v, %v", removed, err)
	}
	for _, id := range []string{"a", "b"} {
		if _, err := db.FindSession(ctx, id); !errors.Is(err, auth.ErrSessionNotFound) {
			t.Errorf("session %s after removal: err = %v", id, err)
		}
	}
	if _, err := db.RemoveUser(ctx, ada.Email, auth.AuditEntry{}); !errors.Is(err, auth.ErrNotFound) {
		t.Errorf("removing twice: err = %v, want ErrNotFound", err)
	}
	// The address can be added again, as a new person.
	mustAddUser(t, db, staff("00000000-0000-4000-8000-000000000003", ada.Email))
	audit, _ := db.ListAudit(ctx, time.Time{})
	if len(audit) != 3 || audit[1].Action != auth.ActionStaffRemoved || audit[1].UserID != ada.ID {
		t.Errorf("audit = %+v", audit)
	}
}

func testSigningKey(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	first := auth.SigningKey{KID: "k1", Algorithm: "ES256", PrivateKey: []byte{1, 2, 3, 0, 255}, CreatedAt: t0}
	second := auth.SigningKey{KID: "k2", Algorithm: "ES256", PrivateKey: []byte{9}, CreatedAt: t0.Add(time.Hour)}
	for _, candidate := range []auth.SigningKey{first, second} {
		keys, err := db.EnsureSigningKey(ctx, candidate)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]auth.SigningKey{first}, keys); diff != "" {
			t.Errorf("keys after offering %s (-want +got):\n%s", candidate.KID, diff)
		}
	}
	if err := db.AddSigningKey(ctx, second); err != nil {
		t.Fatal(err)
	}
	if keys, err := db.ListSigningKeys(ctx); err != nil || cmp.Diff([]auth.SigningKey{second, first}, keys) != "" {
		t.Errorf("ListSigningKeys = %+v, %v; want the newest first", keys, err)
	}
	if err := db.DeleteSigningKey(ctx, first.KID); err != nil {
		t.Fatal(err)
	}
	if keys, err := db.ListSigningKeys(ctx); err != nil || cmp.Diff([]auth.SigningKey{second}, keys) != "" {
		t.Errorf("after DeleteSigningKey = %+v, %v", keys, err)
	}
}

func testPKCE(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	ada := staff("00000000-0000-4000-8000-000000000001", "ada@studio.test")
	mustAddUser(t, db, ada)
	plain := code(ada.ID, "c1", "plain-link", t0)
	withChallenge := code(ada.ID, "c2", "pkce-link", t0)
	withChallenge.CodeChallenge, withChallenge.CodeChallengeMethod = "challenge", "s256"
	var gotChallenge, gotMethod string
	check := func(ok bool) func(string, string) bool {
		return func(c, m string) bool { gotChallenge, gotMethod = c, m; return ok }
	}
	if err := db.CreateCode(ctx, plain, auth.AuditEntry{}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ConsumePKCE(ctx, "plain-link", t0, 5, check(true)); !errors.Is(err, auth.ErrNotFound) {
		t.Errorf("code without a challenge: err = %v, want ErrNotFound", err)
	}
	if err := db.CreateCode(ctx, withChallenge, auth.AuditEntry{}); err != nil {
		t.Fatal(err)
	}
	// Its link does not sign in without the verifier, and stays for it.
	for range 6 {
		if _, err := db.ConsumeLink(ctx, "pkce-link", auth.PurposeSignIn, t0, 5); !errors.Is(err, auth.ErrPKCERequired) {
			t.Errorf("link of a PKCE code: err = %v, want ErrPKCERequired", err)
		}
	}
	if _, err := db.ConsumePKCE(ctx, "pkce-link", t0, 5, check(false)); !errors.Is(err, auth.ErrBadCodeVerifier) {
		t.Errorf("wrong verifier: err = %v", err)
	}
	if gotChallenge != "challenge" || gotMethod != "s256" {
		t.Errorf("verifier saw %q %q", gotChallenge, gotMethod)
	}
	if _, err := db.ConsumePKCE(ctx, "pkce-link", t0.Add(10*time.Minute), 5, check(true)); !errors.Is(err, auth.ErrFlowStateExpired) {
		t.Errorf("expired: err = %v", err)
	}
	userID, err := db.ConsumePKCE(ctx, "pkce-link", t0.Add(time.Minute), 5, check(true))
	if err != nil || userID != ada.ID {
		t.Errorf("ConsumePKCE = %q, %v", userID, err)
	}
	if _, err := db.ConsumePKCE(ctx, "pkce-link", t0.Add(time.Minute), 5, check(true)); !errors.Is(err, auth.ErrNotFound) {
		t.Errorf("used twice: err = %v, want ErrNotFound", err)
	}
}

func testEmailChange(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	ada := staff("00000000-0000-4000-8000-000000000001", "ada@studio.test")
	bob := staff("00000000-0000-4000-8000-000000000002", "bob@studio.test")
	mustAddUser(t, db, ada)
	mustAddUser(t, db, bob)
	change := func(hash, link, to string) {
		c := code(ada.ID, hash, link, t0)
		c.Purpose, c.NewEmail = auth.PurposeEmailChange, to
		if err := db.CreateCode(ctx, c, auth.AuditEntry{}); err != nil {
			t.Fatal(err)
		}
	}
	match := func(want string) func(string, string) bool {
		return func(userID, stored string) bool { return userID == ada.ID && stored == want }
	}
	change("h1", "l1", "lovelace@studio.test")
	if _, err := db.ConsumeEmailChange(ctx, "lovelace@studio.test", t0, 5, match("wrong"), auth.AuditEntry{}); !errors.Is(err, auth.ErrCodeInvalid) {
		t.Errorf("wrong code: err = %v", err)
	}
	// Found by the current address too.
	userID, err := db.ConsumeEmailChange(ctx, "ada@studio.test", t0, 5, match("h1"), auth.AuditEntry{})
	if err != nil || userID != ada.ID {
		t.Fatalf("ConsumeEmailChange = %q, %v", userID, err)
	}
	if u, _ := db.FindUserByID(ctx, ada.ID); u.Email != "lovelace@studio.test" {
		t.Errorf("address after the change = %q", u.Email)
	}
	change("h2", "l2", "bob@studio.test")
	if _, err := db.ConsumeEmailChange(ctx, "bob@studio.test", t0, 5, match("h2"), auth.AuditEntry{}); !errors.Is(err, auth.ErrExists) {
		t.Errorf("someone else's address: err = %v, want ErrExists", err)
	}
	change("h3", "l3", "ada@studio.test")
	if id, err := db.ConsumeLink(ctx, "l3", auth.PurposeEmailChange, t0, 5); err != nil || id != ada.ID {
		t.Fatalf("ConsumeLink = %q %v", id, err)
	}
	if u, _ := db.FindUserByID(ctx, ada.ID); u.Email != "ada@studio.test" {
		t.Errorf("address after the link = %q", u.Email)
	}
}

// anySession is RefreshSession's check that lets every session refresh.
func anySession(auth.Session) error { return nil }
