// Package federated holds what federated sign-in needs apart from the
// /auth/v1 handlers: SAML metadata (parsing, checking, fetching and
// refreshing it, reading an assertion's person), OpenID Connect providers
// (their settings, discovery and its cache, the ID token's claims), and the
// HTTP client every call to a provider goes through, which reaches only
// public addresses and the provider's own host. The handlers of SSO, OAuth
// and the finish step stay in package auth, which imports this one.
package federated
