package auth_test

import (
	"context"
	"testing"

	"studio/internal/auth"
)

// TestAuthorize: the check other services make of an access token.
func TestAuthorize(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, sqlite())
	session := f.signIn()
	token := session["access_token"].(string)

	staff, e := f.svc.Authorize(ctx, token)
	if e != nil {
		t.Fatalf("Authorize = %v", e)
	}
	if staff.UserID != f.ada.ID || staff.Email != adaEmail || staff.AAL != "aal1" || staff.SessionID == "" {
		t.Errorf("Authorize = %+v", staff)
	}

	for _, tt := range []struct{ name, token, code string }{
		{"garbage", "not-a-jwt", "bad_jwt"},
		{"empty", "", "bad_jwt"},
		{"tampered", token[:len(token)-4] + "AAAA", "bad_jwt"},
	} {
		if _, e := f.svc.Authorize(ctx, tt.token); e == nil || e.Code != tt.code || e.Status != 403 {
			t.Errorf("%s: Authorize = %v, want 403 %s", tt.name, e, tt.code)
		}
	}

	mfa := auth.New(f.db, auth.Config{SiteOrigin: origin, Now: f.clock.Now, MFAKey: f.secrets, RequireMFA: true})
	if _, e := mfa.Authorize(ctx, token); e == nil || e.Code != "insufficient_aal" || e.Status != 403 {
		t.Errorf("aal1 with RequireMFA: Authorize = %v, want 403 insufficient_aal", e)
	}

	if r := f.do("POST", "/auth/v1/logout", "", bearer(session)...); r.status != 204 {
		t.Fatalf("logout = %d %s", r.status, r.raw)
	}
	if _, e := f.svc.Authorize(ctx, token); e == nil || e.Code != "session_not_found" {
		t.Errorf("after sign-out: Authorize = %v, want session_not_found", e)
	}
}
