package auth

import (
	"context"
	"net/http"

	"studio/internal/api"
	"studio/internal/staff"
)

// settings is the answer of GET /settings: no sign-up.
type settings struct {
	External          map[string]bool `json:"external"`
	DisableSignup     bool            `json:"disable_signup"`
	MailerAutoconfirm bool            `json:"mailer_autoconfirm"`
	PhoneAutoconfirm  bool            `json:"phone_autoconfirm"`
	SMSProvider       string          `json:"sms_provider"`
	SAMLEnabled       bool            `json:"saml_enabled"`
}

// externalProviders are GoTrue's provider names; only email is on.
var externalProviders = []string{"anonymous_users", "apple", "azure", "bitbucket", "discord", "email", "facebook",
	"figma", "fly", "github", "gitlab", "google", "kakao", "keycloak", "linkedin", "linkedin_oidc", "notion",
	"phone", "slack", "slack_oidc", "snapchat", "spotify", "twitch", "twitter", "workos", "zoom"}

// handleSettings handles GET /auth/v1/settings: e-mail, and the OpenID
// Connect providers an operator added (by name) are on; saml_enabled says
// whether a SAML provider was added.
func (s *Service) handleSettings(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	providers, err := s.store.Providers(ctx)
	if err != nil {
		s.failed(w, r, "list providers", err)
		return
	}
	ext := map[string]bool{}
	for _, p := range externalProviders {
		ext[p] = p == "email"
	}
	answer := settings{External: ext, DisableSignup: true}
	for _, p := range providers {
		switch p.Kind {
		case staff.KindOIDC:
			ext[p.Name] = true
		case staff.KindSAML:
			answer.SAMLEnabled = true
		}
	}
	api.WriteJSON(w, http.StatusOK, answer)
}

// handleHealth handles GET /auth/v1/health.
func (s *Service) handleHealth(w http.ResponseWriter, _ *http.Request) {
	api.WriteJSON(w, http.StatusOK, map[string]string{
		"version": "studio", "name": "GoTrue", "description": "GoTrue is a user registration and authentication API",
	})
}

// HandleJWKS handles GET /.well-known/jwks.json, at the site's root and
// under /auth/v1: the public keys of the access tokens. Clients may cache
// it for ten minutes, so a new key is published at least that long before
// it signs (key rotation).
func (s *Service) HandleJWKS(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	keys, err := s.signingKeys(ctx, false)
	if err != nil {
		s.failed(w, r, "load signing keys", err)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "public, max-age=600")
	_, _ = w.Write(keys.JWKS())
}

// AnonKey is the anon key signed by the current signing key, as "studio keys
// print-anon" prints it: the staff console fetches it to create its client.
func (s *Service) AnonKey(ctx context.Context) (string, error) {
	keys, err := s.signingKeys(ctx, false)
	if err != nil {
		return "", err
	}
	return keys.AnonKey()
}
