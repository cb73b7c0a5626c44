package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"studio/internal/notify"
	"studio/internal/staff"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

func testFederated(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	ada := member(adaID, "ada@studio.test")
	mustAddUser(t, db, ada)

	saml := staff.Provider{ID: "10000000-0000-4000-8000-000000000001", Kind: staff.KindSAML, Name: staff.SSOName("10000000-0000-4000-8000-000000000001"),
		EntityID: "https://idp.test/saml", Domains: []string{"studio.test"}, Config: []byte(`{}`), CreatedAt: t0}
	if err := db.AddProvider(ctx, saml, staff.AuditEntry{At: t0, Action: staff.ActionProviderAdded}); err != nil {
		t.Fatal(err)
	}
	again := saml
	again.ID, again.Name, again.Domains = "10000000-0000-4000-8000-000000000002", "sso:other", nil
	if err := db.AddProvider(ctx, again, staff.AuditEntry{At: t0}); !errors.Is(err, staff.ErrExists) {
		t.Errorf("same entity id again: err = %v, want ErrExists", err)
	}
	again.EntityID, again.Domains = "https://idp2.test/saml", []string{"studio.test"}
	if err := db.AddProvider(ctx, again, staff.AuditEntry{At: t0}); !errors.Is(err, staff.ErrExists) {
		t.Errorf("same SSO domain again: err = %v, want ErrExists", err)
	}
	oidc := staff.Provider{ID: "20000000-0000-4000-8000-000000000001", Kind: staff.KindOIDC, Name: "keycloak",
		Domains: []string{"studio.test"}, Config: []byte(`{"issuer":"https://kc.test"}`), CreatedAt: t0.Add(time.Second)}
	if err := db.AddProvider(ctx, oidc, staff.AuditEntry{At: t0}); err != nil {
		t.Errorf("an OIDC provider may allow a domain SAML uses: %v", err)
	}
	if p, err := db.FindSSOProviderByDomain(ctx, "studio.test"); err != nil || p.ID != saml.ID || p.EntityID != saml.EntityID {
		t.Errorf("FindSSOProviderByDomain = %+v, %v", p, err)
	}
	if p, err := db.FindProvider(ctx, "keycloak"); err != nil || p.ID != oidc.ID || string(p.Config) != string(oidc.Config) || len(p.Domains) != 1 {
		t.Errorf("FindProvider(name) = %+v, %v", p, err)
	}
	if ps, err := db.Providers(ctx); err != nil || len(ps) != 2 || ps[0].ID != saml.ID || ps[1].Domains[0] != "studio.test" {
		t.Errorf("Providers = %+v, %v", ps, err)
	}

	// Flow states are used once and expire.
	flow := staff.FlowState{StateHash: "state1", Provider: "keycloak", RequestID: "nonce", RedirectTo: "https://site.test/admin",
		LinkUserID: ada.ID, CreatedAt: t0, ExpiresAt: t0.Add(10 * time.Minute)}
	if err := db.CreateFlowState(ctx, flow); err != nil {
		t.Fatal(err)
	}
	if got, err := db.ConsumeFlowState(ctx, "state1", t0.Add(time.Minute)); err != nil || got.RequestID != "nonce" || got.LinkUserID != ada.ID {
		t.Errorf("ConsumeFlowState = %+v, %v", got, err)
	}
	if _, err := db.ConsumeFlowState(ctx, "state1", t0.Add(time.Minute)); !errors.Is(err, staff.ErrNotFound) {
		t.Errorf("second use: err = %v, want ErrNotFound", err)
	}
	flow.StateHash = "state2"
	if err := db.CreateFlowState(ctx, flow); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ConsumeFlowState(ctx, "state2", t0.Add(10*time.Minute)); !errors.Is(err, staff.ErrFlowStateExpired) {
		t.Errorf("expired: err = %v, want ErrFlowStateExpired", err)
	}

	// An assertion is accepted once.
	if err := db.UseAssertion(ctx, "a1", t0.Add(5*time.Minute), t0); err != nil {
		t.Fatal(err)
	}
	if err := db.UseAssertion(ctx, "a1", t0.Add(5*time.Minute), t0.Add(time.Minute)); !errors.Is(err, staff.ErrExists) {
		t.Errorf("replayed assertion: err = %v, want ErrExists", err)
	}

	// Identities: tied to one user, listed with them, added with a new user.
	at := t0
	id := staff.Identity{ID: "30000000-0000-4000-8000-000000000001", UserID: ada.ID, Provider: "keycloak", Subject: "sub-ada",
		Email: ada.Email, Data: map[string]any{"sub": "sub-ada"}, CreatedAt: t0, UpdatedAt: t0, LastSignInAt: &at}
	if err := db.SaveIdentity(ctx, id, nil, staff.AuditEntry{At: t0, Action: staff.ActionLogin}); !errors.Is(err, staff.ErrNotFound) {
		t.Errorf("signing in with an identity nobody has: err = %v, want ErrNotFound", err)
	}
	linked := notify.Email{From: "site@studio.test", To: []string{ada.Email}, Subject: "A sign-in method was added to your account"}
	if err := db.SaveIdentity(ctx, id, &staff.Link{ByDomain: true, Mail: &linked}, staff.AuditEntry{At: t0, Action: staff.ActionIdentityLinked}); err != nil {
		t.Fatal(err)
	}
	if err := db.SaveIdentity(ctx, id, nil, staff.AuditEntry{At: t0, Action: staff.ActionLogin}); err != nil {
		t.Errorf("signing in again with one's identity: %v", err)
	}
	if err := db.SaveIdentity(ctx, id, &staff.Link{Mail: &linked}, staff.AuditEntry{At: t0, Action: staff.ActionIdentityLinked}); err != nil {
		t.Errorf("linking one's identity twice at once: %v", err)
	}
	if n := outboxSubjects(t, db)[linked.Subject]; n != 1 {
		t.Errorf("mails of a new link: %d, want 1 (not for a sign-in, nor for the same link again)", n)
	}
	bob := member("00000000-0000-4000-8000-000000000002", "bob@studio.test")
	stolen := id
	stolen.ID, stolen.UserID = "30000000-0000-4000-8000-000000000002", bob.ID
	if err := db.SaveIdentity(ctx, stolen, &staff.Link{NewUser: &bob}, staff.AuditEntry{At: t0}); !errors.Is(err, staff.ErrExists) {
		t.Errorf("another user's identity: err = %v, want ErrExists", err)
	}
	if err := db.SaveIdentity(ctx, stolen, nil, staff.AuditEntry{At: t0}); !errors.Is(err, staff.ErrNotFound) {
		t.Errorf("signing in with another user's identity: err = %v, want ErrNotFound", err)
	}
	if _, err := db.FindUserByEmail(ctx, bob.Email); !errors.Is(err, staff.ErrNotFound) {
		t.Errorf("a refused identity added its new user: %v", err)
	}
	stolen.Subject = "sub-bob"
	if err := db.SaveIdentity(ctx, stolen, &staff.Link{NewUser: &bob, ByDomain: true}, staff.AuditEntry{At: t0, Action: staff.ActionStaffAdded}); err != nil {
		t.Fatalf("new user with identity: %v", err)
	}
	if u, err := db.FindUserByEmail(ctx, bob.Email); err != nil || len(u.Identities) != 1 || u.Identities[0].Subject != "sub-bob" {
		t.Errorf("new user = %+v, %v", u, err)
	}
	if got, err := db.FindIdentity(ctx, "keycloak", "sub-ada"); err != nil || got.UserID != ada.ID || got.Data["sub"] != "sub-ada" {
		t.Errorf("FindIdentity = %+v, %v", got, err)
	}
	// Removing a member of staff removes their identities (and sessions).
	if _, err := db.RemoveUser(ctx, bob.Email, staff.AuditEntry{At: t0, Action: staff.ActionStaffRemoved}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.FindIdentity(ctx, "keycloak", "sub-bob"); !errors.Is(err, staff.ErrNotFound) {
		t.Errorf("identity of a removed member of staff: %v", err)
	}
	if err := db.SaveIdentity(ctx, stolen, &staff.Link{NewUser: &bob, ByDomain: true}, staff.AuditEntry{At: t0, Action: staff.ActionStaffAdded}); err != nil {
		t.Fatalf("adding them again with their identity: %v", err)
	}
	if err := db.RemoveIdentity(ctx, bob.ID, id.ID, staff.AuditEntry{At: t0}); !errors.Is(err, staff.ErrNotFound) {
		t.Errorf("removing another user's identity: err = %v, want ErrNotFound", err)
	}
	if err := db.RemoveIdentity(ctx, ada.ID, id.ID, staff.AuditEntry{At: t0, Action: staff.ActionIdentityUnlinked}); err != nil {
		t.Error(err)
	}

	// An identity unlinked stays unlinked: the provider's domain does not
	// tie it again, and signing in with it finds nothing; a link the person
	// makes does, and lifts that.
	if err := db.SaveIdentity(ctx, id, nil, staff.AuditEntry{At: t0, Action: staff.ActionLogin}); !errors.Is(err, staff.ErrNotFound) {
		t.Errorf("signing in with an unlinked identity: err = %v, want ErrNotFound", err)
	}
	if err := db.SaveIdentity(ctx, id, &staff.Link{ByDomain: true, Mail: &linked}, staff.AuditEntry{At: t0}); !errors.Is(err, staff.ErrUnlinked) {
		t.Errorf("the domain tying an unlinked provider again: err = %v, want ErrUnlinked", err)
	}
	if _, err := db.FindIdentity(ctx, "keycloak", "sub-ada"); !errors.Is(err, staff.ErrNotFound) {
		t.Errorf("a refused link was stored: %v", err)
	}
	if err := db.SaveIdentity(ctx, id, &staff.Link{Mail: &linked}, staff.AuditEntry{At: t0, Action: staff.ActionIdentityLinked}); err != nil {
		t.Fatalf("the person linking it again: %v", err)
	}
	if err := db.RemoveIdentity(ctx, ada.ID, id.ID, staff.AuditEntry{At: t0, Action: staff.ActionIdentityUnlinked}); err != nil {
		t.Fatal(err)
	}
	if err := db.SaveIdentity(ctx, id, &staff.Link{}, staff.AuditEntry{At: t0, Action: staff.ActionIdentityLinked}); err != nil {
		t.Fatalf("linking it once more: %v", err)
	}
	if err := db.RemoveIdentity(ctx, ada.ID, id.ID, staff.AuditEntry{At: t0, Action: staff.ActionIdentityUnlinked}); err != nil {
		t.Fatal(err)
	}
	if n := outboxSubjects(t, db)[linked.Subject]; n != 2 {
		t.Errorf("mails of new links: %d, want 2", n)
	}

	// Removing a provider removes its identities and frees its entity id.
	if _, err := db.RemoveProvider(ctx, "keycloak", staff.AuditEntry{At: t0, Action: staff.ActionProviderRemoved}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.FindIdentity(ctx, "keycloak", "sub-bob"); !errors.Is(err, staff.ErrNotFound) {
		t.Errorf("identity of a removed provider: %v", err)
	}
	if _, err := db.RemoveProvider(ctx, saml.ID, staff.AuditEntry{At: t0}); err != nil {
		t.Fatal(err)
	}
	if err := db.AddProvider(ctx, again, staff.AuditEntry{At: t0}); err != nil {
		t.Errorf("after removal the domain is free: %v", err)
	}
	if _, err := db.RemoveProvider(ctx, "nobody", staff.AuditEntry{At: t0}); !errors.Is(err, staff.ErrNotFound) {
		t.Errorf("removing no provider: err = %v", err)
	}

	// One SAML key, the first kept.
	k1, err := db.SAMLKey(ctx, staff.SAMLKeyPair{PrivateKey: []byte("k1"), Certificate: []byte("c1"), CreatedAt: t0})
	if err != nil {
		t.Fatal(err)
	}
	k2, err := db.SAMLKey(ctx, staff.SAMLKeyPair{PrivateKey: []byte("k2"), Certificate: []byte("c2"), CreatedAt: t0})
	if err != nil || string(k1.PrivateKey) != "k1" || string(k2.PrivateKey) != "k1" {
		t.Errorf("SAMLKey = %q then %q, %v", k1.PrivateKey, k2.PrivateKey, err)
	}
}

// outboxSubjects counts the queued mails by subject.
func outboxSubjects(t *testing.T, db *store.DB) map[string]int {
	t.Helper()
	entries, err := db.ListOutbox(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, e := range entries {
		n[e.Subject]++
	}
	return n
}
