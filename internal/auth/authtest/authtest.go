// Package authtest signs staff in for the tests of the services that take
// their access tokens (rest/v1, realtime/v1), through the real auth
// service: a printed code, verified at /auth/v1/verify.
package authtest

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"studio/internal/auth"
	"studio/internal/secretkey"
	"studio/internal/staff"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

// Origin is the site origin of the services New makes.
const Origin = "https://studio.test"

// SecretKey is the secret key of the services New makes. Another service on
// the same store needs it (Config.MFAKey) to open the signing keys.
var SecretKey = func() *secretkey.SecretKey {
	k, err := secretkey.NewRandomSecretKey()
	if err != nil {
		panic(err)
	}
	return k
}()

// New opens a new store of engine (storetest) and the auth service on it;
// tweak may change its configuration (RequireMFA).
func New(tb testing.TB, engine storetest.Engine, tweak ...func(*auth.Config)) (*store.DB, *auth.Service) {
	tb.Helper()
	db := engine.New(tb)
	cfg := auth.Config{SiteOrigin: Origin, MFAKey: SecretKey}
	for _, f := range tweak {
		f(&cfg)
	}
	return db, auth.New(db, cfg)
}

// SignIn adds email as staff and signs them in with a code, as "studio
// staff sign-in-code" prints one; it returns the access token.
func SignIn(tb testing.TB, db *store.DB, svc *auth.Service, email string) string {
	tb.Helper()
	ctx := context.Background()
	now := time.Now()
	u := staff.User{ID: uuid.NewString(), Email: email, CreatedAt: now, UpdatedAt: now}
	if err := db.CreateUser(ctx, u, staff.AuditEntry{At: now, Action: staff.ActionStaffAdded, Email: email}); err != nil {
		tb.Fatal(err)
	}
	code, _, c, err := staff.NewCode(u.ID, staff.PurposeSignIn, now, time.Minute)
	if err != nil {
		tb.Fatal(err)
	}
	if err := db.CreateCode(ctx, c, staff.AuditEntry{At: now, Action: staff.ActionCodeCLIPrinted, Email: email}); err != nil {
		tb.Fatal(err)
	}
	w := httptest.NewRecorder()
	r := httptest.NewRequest("POST", "/auth/v1/verify", strings.NewReader(`{"email":"`+email+`","token":"`+code+`","type":"email"}`))
	r.Header.Set("Content-Type", "application/json")
	svc.ServeHTTP(w, r)
	var session struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &session); err != nil || session.AccessToken == "" {
		tb.Fatalf("verify = %d %s", w.Code, w.Body)
	}
	return session.AccessToken
}

// SignOut ends every session of email, as a global sign-out does.
func SignOut(tb testing.TB, db *store.DB, email string) {
	tb.Helper()
	ctx := context.Background()
	u, err := db.FindUserByEmail(ctx, email)
	if err != nil {
		tb.Fatal(err)
	}
	if err := db.EndSessions(ctx, u.ID, "", staff.ScopeGlobal, staff.AuditEntry{At: time.Now(), Action: staff.ActionLogout}); err != nil {
		tb.Fatal(err)
	}
}
