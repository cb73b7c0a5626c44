package auth_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"
	"time"

	"studio/internal/auth/authtest"
	"studio/internal/staff"
	"studio/internal/store/storetest"
)

// TestUnlinkIdentity: GET /user lists the e-mail identity and the
// providers' ones; DELETE /user/identities/{id} unlinks a provider's, and
// refuses the e-mail identity, an unknown one and another person's.
func TestUnlinkIdentity(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			db, svc := authtest.New(t, engine)
			ctx := context.Background()
			token := authtest.SignIn(t, db, svc, "ada@studio.test")
			other := authtest.SignIn(t, db, svc, "bob@studio.test")
			ada, err := db.FindUserByEmail(ctx, "ada@studio.test")
			if err != nil {
				t.Fatal(err)
			}
			now := time.Now()
			linked := staff.Identity{ID: "30000000-0000-4000-8000-000000000001", UserID: ada.ID, Provider: "keycloak", Subject: "kc-ada",
				Email: ada.Email, Data: map[string]any{"sub": "kc-ada"}, CreatedAt: now, UpdatedAt: now}
			if err := db.SaveIdentity(ctx, linked, &staff.Link{}, staff.AuditEntry{At: now, Action: staff.ActionIdentityLinked}); err != nil {
				t.Fatal(err)
			}

			call := func(method, path, token string) (int, map[string]any) {
				w := httptest.NewRecorder()
				r := httptest.NewRequest(method, "/auth/v1"+path, nil)
				r.Header.Set("Authorization", "Bearer "+token)
				svc.ServeHTTP(w, r)
				var body map[string]any
				_ = json.Unmarshal(w.Body.Bytes(), &body)
				return w.Code, body
			}
			status, user := call("GET", "/user", token)
			ids, _ := user["identities"].([]any)
			if status != 200 || len(ids) != 2 {
				t.Fatalf("GET /user = %d, identities %v", status, user["identities"])
			}
			email, kc := ids[0].(map[string]any), ids[1].(map[string]any)
			if email["provider"] != "email" || kc["provider"] != "keycloak" || kc["identity_id"] != linked.ID || kc["id"] != "kc-ada" {
				t.Errorf("identities = %v", ids)
			}
			if providers := user["app_metadata"].(map[string]any)["providers"]; len(providers.([]any)) != 2 {
				t.Errorf("app_metadata.providers = %v", providers)
			}

			steps := []struct {
				name, id, token string
				status          int
				code            string
			}{
				{"not a UUID", "abc", token, 404, "validation_failed"},
				{"the e-mail identity", email["identity_id"].(string), token, 422, "single_identity_not_deletable"},
				{"another person's identity", linked.ID, other, 422, "identity_not_found"},
				{"a provider's identity", linked.ID, token, 200, ""},
				{"again", linked.ID, token, 422, "identity_not_found"},
				{"the e-mail identity, now the only one", email["identity_id"].(string), token, 422, "single_identity_not_deletable"},
			}
			for _, s := range steps {
				status, body := call("DELETE", "/user/identities/"+s.id, s.token)
				if status != s.status || (s.code != "" && body["error_code"] != s.code) {
					t.Errorf("%s: DELETE = %d %v, want %d %s", s.name, status, body, s.status, s.code)
				}
			}
			if _, err := db.FindIdentity(ctx, "keycloak", "kc-ada"); err == nil {
				t.Error("the unlinked identity is still there")
			}
		})
	}
}

// TestSettingsListProviders: /settings turns on the OpenID Connect
// providers an operator added, by name, and saml_enabled with a SAML one.
func TestSettingsListProviders(t *testing.T) {
	db, svc := authtest.New(t, storetest.Engines()[0])
	get := func() (ext map[string]bool, saml bool) {
		w := httptest.NewRecorder()
		svc.ServeHTTP(w, httptest.NewRequest("GET", "/auth/v1/settings", nil))
		var body struct {
			External    map[string]bool `json:"external"`
			SAMLEnabled bool            `json:"saml_enabled"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
			t.Fatal(w.Code, w.Body)
		}
		return body.External, body.SAMLEnabled
	}
	if ext, saml := get(); !ext["email"] || ext["keycloak"] || saml {
		t.Errorf("before: external %v, saml %v", ext, saml)
	}
	ctx, now := context.Background(), time.Now()
	for _, p := range []staff.Provider{
		{ID: "20000000-0000-4000-8000-000000000001", Kind: staff.KindOIDC, Name: "keycloak", Config: []byte(`{}`), CreatedAt: now},
		{ID: "10000000-0000-4000-8000-000000000001", Kind: staff.KindSAML, Name: staff.SSOName("10000000-0000-4000-8000-000000000001"),
			EntityID: "https://idp.test", Config: []byte(`{}`), CreatedAt: now},
	} {
		if err := db.AddProvider(ctx, p, staff.AuditEntry{At: now, Action: staff.ActionProviderAdded}); err != nil {
			t.Fatal(err)
		}
	}
	if ext, saml := get(); !ext["keycloak"] || !saml {
		t.Errorf("after: external %v, saml %v", ext, saml)
	}
}
