-- Federated sign-in (SAML single sign-on and OpenID Connect): the identity
-- providers an operator added, the identities that tie a person at a
-- provider to a member of staff, the sign-ins under way at a provider, the
-- SAML assertions already used, and the key the site signs SAML requests
-- with. Secrets (a client secret, the SAML key) are sealed with the secret
-- key, never in clear.

CREATE TABLE auth_providers (
    id         TEXT PRIMARY KEY,            -- UUID
    kind       TEXT NOT NULL,               -- saml or oidc
    name       TEXT NOT NULL UNIQUE,        -- identities' provider: as given (oidc), sso:<id> (saml)
    entity_id  TEXT UNIQUE,                 -- saml: the IdP's entity id
    config     TEXT NOT NULL,               -- JSON of the kind's settings, secrets sealed
    created_at TEXT NOT NULL
) STRICT;

-- The e-mail domains of a provider: whose people it may add as staff on
-- their first sign-in, and (sso = 1, SAML) which provider POST /sso picks
-- for an address of the domain, so one provider per SSO domain.
CREATE TABLE auth_provider_domains (
    provider_id TEXT NOT NULL REFERENCES auth_providers (id) ON DELETE CASCADE,
    domain      TEXT NOT NULL,              -- lower case
    sso         INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (provider_id, domain)
) STRICT;

CREATE UNIQUE INDEX auth_provider_domains_sso ON auth_provider_domains (domain) WHERE sso = 1;

CREATE TABLE auth_identities (
    id              TEXT PRIMARY KEY,       -- UUID, the identity_id
    user_id         TEXT NOT NULL REFERENCES auth_users (id) ON DELETE CASCADE,
    provider        TEXT NOT NULL,          -- auth_providers.name
    subject         TEXT NOT NULL,          -- the person at the provider (sub, NameID)
    email           TEXT NOT NULL,
    identity_data   TEXT NOT NULL DEFAULT '{}', -- JSON: the provider's claims
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    last_sign_in_at TEXT,
    UNIQUE (provider, subject)
) STRICT;

CREATE INDEX auth_identities_user ON auth_identities (user_id);

-- A sign-in sent to a provider, until it comes back (used once: deleted).
CREATE TABLE auth_flow_states (
    state_hash            TEXT PRIMARY KEY, -- hex SHA-256 of the state (OIDC) or RelayState (SAML)
    provider              TEXT NOT NULL,    -- auth_providers.name
    request_id            TEXT NOT NULL,    -- SAML: the AuthnRequest's ID; OIDC: the nonce
    provider_verifier     TEXT NOT NULL DEFAULT '', -- OIDC: our PKCE verifier at the provider
    redirect_to           TEXT NOT NULL,    -- where it returns, already allowed
    code_challenge        TEXT NOT NULL DEFAULT '', -- the client's PKCE, if it asked for it
    code_challenge_method TEXT NOT NULL DEFAULT '',
    link_user_id          TEXT REFERENCES auth_users (id) ON DELETE CASCADE, -- linking to a signed-in person
    created_at            TEXT NOT NULL,
    expires_at            TEXT NOT NULL
) STRICT;

CREATE INDEX auth_flow_states_expires ON auth_flow_states (expires_at);

-- SAML assertions accepted, until they expire: one is never accepted twice.
CREATE TABLE auth_saml_assertions (
    id         TEXT PRIMARY KEY,            -- issuer and assertion ID, hashed
    expires_at TEXT NOT NULL
) STRICT;

CREATE INDEX auth_saml_assertions_expires ON auth_saml_assertions (expires_at);

-- The site's SAML service provider key and certificate (one, made on first use).
CREATE TABLE auth_saml_keys (
    id          INTEGER PRIMARY KEY,        -- 1
    private_key BLOB NOT NULL,                -- PKCS #8 DER, sealed
    certificate BLOB NOT NULL,                -- DER
    created_at  TEXT NOT NULL
) STRICT;
