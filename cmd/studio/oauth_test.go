package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"studio/internal/auth/federated"
	"studio/internal/secretkey"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

// TestOAuthCommands: studio oauth add runs discovery and stores the client
// secret sealed (read from stdin, a file or the environment), list never
// prints it, remove removes the provider.
func TestOAuthCommands(t *testing.T) {
	var issuer string
	idp := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/.well-known/openid-configuration" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"issuer": issuer, "authorization_endpoint": issuer + "/auth",
			"token_endpoint": issuer + "/token", "jwks_uri": issuer + "/jwks"})
	}))
	defer idp.Close()
	issuer = idp.URL
	dir := t.TempDir()
	env := func(name string) string {
		if name == clientSecretEnv {
			return "from-env"
		}
		return ""
	}
	add := []string{"oauth", "add", "--data", dir, "--issuer", issuer, "--client-id", "studio-client"}
	steps := []struct {
		name     string
		stdin    string
		env      func(string) string
		args     []string
		wantCode int
		want     string // in stdout (exit 0) or stderr
	}{
		{"add, secret on stdin", "s3cret-from-stdin\n", nil, append([]string{"oauth", "add", "acme", "--client-secret-file", "-", "--allow-domain", "Example.org", "--scopes", "groups"}, add[2:]...), 0, "added provider acme"},
		{"add, secret in the environment", "", env, append(add, "keycloak"), 0, "added provider keycloak"},
		{"add twice", "", env, append(add, "acme"), 1, "there is a provider named acme already"},
		{"add without a secret", "", nil, append(add, "okta"), 1, "the client secret is missing"},
		{"add named email", "", env, append(add, "email"), 1, "provider name"},
		{"add without a name", "", env, add, 2, "want a provider name"},
		{"add an http issuer", "", env, []string{"oauth", "add", "okta", "--data", dir, "--issuer", "http://idp.example.org", "--client-id", "c"}, 1, "want https"},
		{"add an issuer with no discovery", "", env, []string{"oauth", "add", "okta", "--data", dir, "--issuer", issuer + "/nothing", "--client-id", "c"}, 1, "discovery"},
		{"list", "", nil, []string{"oauth", "list", "--data", dir, "--format", "json"}, 0, `"allow_domains": [` + "\n" + `      "example.org"`},
		{"remove", "", nil, []string{"oauth", "remove", "keycloak", "--data", dir}, 0, "removed OpenID Connect provider keycloak and the identities linked to it"},
		{"remove twice", "", nil, []string{"oauth", "remove", "keycloak", "--data", dir}, 1, "no OpenID Connect provider named keycloak"},
	}
	for _, s := range steps {
		stdin = strings.NewReader(s.stdin)
		code, stdout, stderr := runCLI(t, s.env, s.args...)
		out := stdout
		if s.wantCode != 0 {
			out = stderr
		}
		if code != s.wantCode || !strings.Contains(out, s.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit %d and %q", s.name, code, stdout, stderr, s.wantCode, s.want)
		}
		if strings.Contains(stdout+stderr, "s3cret") || strings.Contains(stdout+stderr, "from-env") {
			t.Errorf("%s printed the client secret: %s %s", s.name, stdout, stderr)
		}
	}

	db := storetest.MustOpen(t, store.Config{DataDir: dir})
	p, err := db.FindProvider(context.Background(), "acme")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := federated.OIDCSettings(p)
	if err != nil {
		t.Fatal(err)
	}
	key, _, err := secretkey.LoadSecretKey(dir)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(p.Config), "s3cret") {
		t.Errorf("the client secret is stored in clear: %s", p.Config)
	}
	if secret, err := key.Open([]byte(cfg.ClientSecret), "oidc client secret "+p.ID); err != nil || string(secret) != "s3cret-from-stdin" {
		t.Errorf("the sealed client secret opens to %q, %v", secret, err)
	}
	if cfg.Issuer != issuer || cfg.ClientID != "studio-client" || strings.Join(cfg.Scopes, " ") != "groups" {
		t.Errorf("settings = %+v", cfg)
	}
}
