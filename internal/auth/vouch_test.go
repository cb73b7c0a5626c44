package auth_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"studio/internal/staff"
	"studio/internal/store/storetest"
)

// TestProvidersVouchOnlyForTheirOwn: a provider signs in only an identity
// tied to a member of staff (linked by them, or by staff) or an address of
// a domain it is allowed. A partner's provider that asserts a staff
// address outside its domains, verified or not, signs nobody in, links
// nothing, and is answered as a stranger is; an identity unlinked stays
// unlinked; every new link is mailed to the person and audited.
func TestProvidersVouchOnlyForTheirOwn(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) { testProvidersVouchOnlyForTheirOwn(t, engine) })
	}
}

func testProvidersVouchOnlyForTheirOwn(t *testing.T, engine storetest.Engine) {
	f := newFixture(t, engine)
	ctx := context.Background()
	partner := newFakeIdP(t)
	f.addProvider(partner, "partner", nil, "partner.example")
	f.mail() // nothing queued yet; clears the way
	start := func(provider string) *url.URL {
		return location(t, f.do("GET", "/auth/v1/authorize?provider="+provider+"&redirect_to="+url.QueryEscape(origin+"/admin/next"), ""))
	}
	idToken := func(idp *fakeIdP, subject, email string) string {
		f.clock.Advance(time.Second) // a new token each time
		return idp.sign(idp.claims(f.clock.Now(), subject, email, ""))
	}
	grant := func(token string, headers ...string) response {
		return f.do("POST", "/auth/v1/token?grant_type=id_token", `{"provider":"partner","id_token":"`+token+`"}`, headers...)
	}
	refusedAlike := func(name string, to *url.URL) {
		t.Helper()
		v := fragment(t, to)
		if v.Get("error") != "access_denied" || v.Get("access_token") != "" {
			t.Errorf("%s: back at %s, want error=access_denied", name, to)
		}
	}
	const vouchRefusal = "oidc partner: not vouched: the address is outside the provider's domains"

	// The hole: the partner asserts Ada's (verified) address.
	refusedAlike("staff address", f.callback(partner.grant(start("partner"), f.clock.Now(), "mallory", adaEmail, nil, nil)))
	if got := f.lastLoginFailure(); got != vouchRefusal {
		t.Errorf("audit login_failed %q, want %q", got, vouchRefusal)
	}
	refusedAlike("staff address, unverified", f.callback(partner.grant(start("partner"), f.clock.Now(), "mallory", adaEmail,
		func(c map[string]any) { delete(c, "email_verified") }, nil)))
	refusedAlike("stranger", f.callback(partner.grant(start("partner"), f.clock.Now(), "eve", "eve@elsewhere.test", nil, nil)))
	staffAnswer := grant(idToken(partner, "mallory", adaEmail))
	strangerAnswer := grant(idToken(partner, "eve", "eve@elsewhere.test"))
	if staffAnswer.status != 422 || staffAnswer.raw != strangerAnswer.raw {
		t.Errorf("id_token grant: staff's address = %d %s, a stranger's = %d %s; want the same refusal",
			staffAnswer.status, staffAnswer.raw, strangerAnswer.status, strangerAnswer.raw)
	}
	if _, err := f.db.FindIdentity(ctx, "partner", "mallory"); !errors.Is(err, staff.ErrNotFound) {
		t.Errorf("the refused identity was linked: %v", err)
	}
	if mail := f.mail(); mail != "" {
		t.Errorf("a refused sign-in mailed:\n%s", mail)
	}

	// Ada links her account at the partner herself: it signs her in from
	// then on, and she is told.
	session := f.signIn()
	linkToken := idToken(partner, "ada-at-partner", "ada.elsewhere@gmail.test")
	if r := f.do("POST", "/auth/v1/token?grant_type=id_token", `{"provider":"partner","id_token":"`+linkToken+`","link_identity":true}`,
		bearer(session)...); r.status != 200 {
		t.Fatalf("link = %d %s", r.status, r.raw)
	}
	if mail := f.mail(); !strings.Contains(mail, "partner may now sign you in as "+adaEmail) {
		t.Errorf("the link was not mailed:\n%s", mail)
	}
	if r := grant(idToken(partner, "ada-at-partner", "ada.elsewhere@gmail.test")); r.status != 200 || r.body["user"].(map[string]any)["email"] != adaEmail {
		t.Fatalf("sign-in with the linked identity = %d %s", r.status, r.raw)
	}
	if mail := f.mail(); mail != "" {
		t.Errorf("a sign-in mailed as a link:\n%s", mail)
	}

	// Unlinked, it stays unlinked.
	id, err := f.db.FindIdentity(ctx, "partner", "ada-at-partner")
	if err != nil {
		t.Fatal(err)
	}
	if r := f.do("DELETE", "/auth/v1/user/identities/"+id.ID, "", bearer(session)...); r.status != 200 {
		t.Fatalf("unlink = %d %s", r.status, r.raw)
	}
	if r := grant(idToken(partner, "ada-at-partner", "ada.elsewhere@gmail.test")); r.status != 422 || r.body["error_code"] != "signup_disabled" {
		t.Errorf("an unlinked identity = %d %s, want refused as a stranger", r.status, r.raw)
	}

	// A provider of Ada's own domain ties itself to her at her first
	// sign-in (mailed); once she unlinks it, it no longer does.
	own := newFakeIdP(t)
	f.addProvider(own, "own", nil, "studio.test")
	sessionOf(t, f.callback(own.grant(start("own"), f.clock.Now(), "ada-at-own", adaEmail, nil, nil)))
	if mail := f.mail(); !strings.Contains(mail, "own may now sign you in as "+adaEmail) {
		t.Errorf("the domain's link was not mailed:\n%s", mail)
	}
	id, err = f.db.FindIdentity(ctx, "own", "ada-at-own")
	if err != nil {
		t.Fatal(err)
	}
	if r := f.do("DELETE", "/auth/v1/user/identities/"+id.ID, "", bearer(session)...); r.status != 200 {
		t.Fatalf("unlink = %d %s", r.status, r.raw)
	}
	to := f.callback(own.grant(start("own"), f.clock.Now(), "ada-at-own", adaEmail, nil, nil))
	if v := fragment(t, to); v.Get("error") != "access_denied" || v.Get("error_code") != "identity_not_found" || v.Get("access_token") != "" {
		t.Errorf("an unlinked provider of her domain: back at %s", to)
	}
	if got, want := f.lastLoginFailure(), "oidc own: not vouched: the person unlinked this provider"; got != want {
		t.Errorf("audit login_failed %q, want %q", got, want)
	}
	if _, err := f.db.FindIdentity(ctx, "own", "ada-at-own"); !errors.Is(err, staff.ErrNotFound) {
		t.Errorf("the unlinked identity was linked again: %v", err)
	}

	// Every link is in the audit log.
	entries, err := f.db.ListAudit(ctx, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	var links []string
	for _, e := range entries {
		if e.Action == staff.ActionIdentityLinked {
			links = append(links, e.Detail)
		}
	}
	if strings.Join(links, ",") != "partner,own" {
		t.Errorf("identity_linked entries %v, want partner, own", links)
	}
}
