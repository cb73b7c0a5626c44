package auth_test

import (
	"context"
	"errors"
	"testing"

	"studio/internal/auth"
	"studio/internal/fault"
	"studio/internal/staff"
)

// TestAuthorize: the check other services make of an access token.
func TestAuthorize(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, sqlite())
	session := f.signIn()
	token := session["access_token"].(string)

	member, e := f.svc.Authorize(ctx, token)
	if e != nil {
		t.Fatalf("Authorize = %v", e)
	}
	if member.UserID != f.ada.ID || member.Email != adaEmail || member.AAL != "aal1" || member.SessionID == "" {
		t.Errorf("Authorize = %+v", member)
	}

	for _, tt := range []struct{ name, token string }{
		{"garbage", "not-a-jwt"},
		{"empty", ""},
		{"tampered", token[:len(token)-4] + "AAAA"},
	} {
		if _, e := f.svc.Authorize(ctx, tt.token); e == nil || fault.KindOf(e) != fault.Unauthenticated {
			t.Errorf("%s: Authorize = %v, want a refusal of kind %q", tt.name, e, fault.Unauthenticated)
		}
	}

	mfa := auth.New(f.db, auth.Config{SiteOrigin: origin, Now: f.clock.Now, MFAKey: f.secrets, RequireMFA: true})
	if _, e := mfa.Authorize(ctx, token); !errors.Is(e, staff.ErrAAL2Required) || fault.KindOf(e) != fault.Forbidden {
		t.Errorf("aal1 with RequireMFA: Authorize = %v, want ErrAAL2Required", e)
	}

	if r := f.do("POST", "/auth/v1/logout", "", bearer(session)...); r.status != 204 {
		t.Fatalf("logout = %d %s", r.status, r.raw)
	}
	if _, e := f.svc.Authorize(ctx, token); !errors.Is(e, staff.ErrSessionEnded) {
		t.Errorf("after sign-out: Authorize = %v, want ErrSessionEnded", e)
	}
}
