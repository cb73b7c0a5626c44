// Package federated is federated sign-in at /auth/v1: SAML single sign-on
// (POST /sso, the service provider's metadata and assertion consumer
// service), OpenID Connect and OAuth (GET /authorize, /callback, the linking
// of an identity, the id_token grant), and the finish step they share,
// which matches the person a provider vouches for to a member of staff and
// sends the browser back with a session or GoTrue's error. Beneath the
// handlers are their engines: SAML metadata (parsing, checking, fetching
// and refreshing it, reading an assertion's person), OpenID Connect
// providers (their settings, discovery and its cache, the ID token's
// claims), and the HTTP client every call to a provider goes through, which
// reaches only public addresses and the provider's own host.
//
// Package auth mounts the handlers (New, AddRoutes) and is their Host: the
// rate limits, CAPTCHA, sessions, audit and redirect allow list are its,
// shared with its other sign-ins. This package never imports auth; both
// answer with package gotrue's errors.
package federated
