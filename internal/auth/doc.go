// Package auth is the staff sign-in service mounted at /auth/v1. It keeps the
// wire contract of Supabase Auth (GoTrue), so that the official
// @supabase/supabase-js client works against it unchanged: staff ask for a
// one-time code by e-mail (POST /otp), trade it for a session (POST /verify),
// and keep the session alive with rotating refresh tokens (POST /token).
// Access tokens are ES256 JWTs whose public keys are served as a JWKS.
//
// There is no public sign-up: only the people added with "studio staff add"
// can sign in. Its nouns (users, sessions, codes, factors) are package
// staff's. Federated sign-in (SAML, OpenID Connect, OAuth, and the finish
// step they share) is the sub-package federated, whose routes the service
// mounts and whose Host it is (federatedhost.go); both answer with the
// sub-package gotrue's errors, GoTrue's wire.
package auth
