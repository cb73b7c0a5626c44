-- Staff sign-in (the /auth/v1 service): staff users, their sessions and
-- refresh tokens, one-time sign-in codes, the JWT signing keys and an audit
-- log. Secrets (refresh tokens, codes, link tokens) are kept only as SHA-256
-- hashes. Times are TIMESTAMPTZ.

CREATE TABLE auth_users (
    id                 TEXT PRIMARY KEY,    -- UUID, the JWT's sub
    email              TEXT NOT NULL UNIQUE, -- lower case
    user_metadata      TEXT NOT NULL DEFAULT '{}', -- JSON object
    created_at         TIMESTAMPTZ NOT NULL,
    updated_at         TIMESTAMPTZ NOT NULL,
    email_confirmed_at TIMESTAMPTZ,                -- first sign-in
    last_sign_in_at    TIMESTAMPTZ
);

CREATE TABLE auth_sessions (
    id           TEXT PRIMARY KEY,          -- UUID, the JWT's session_id
    user_id      TEXT NOT NULL REFERENCES auth_users (id) ON DELETE CASCADE,
    created_at   TIMESTAMPTZ NOT NULL,
    refreshed_at TIMESTAMPTZ NOT NULL,
    aal          TEXT NOT NULL DEFAULT 'aal1',
    amr          TEXT NOT NULL DEFAULT '[]' -- JSON [{method, timestamp}]
);

CREATE INDEX auth_sessions_user ON auth_sessions (user_id);

-- A refresh token is used once: using it revokes it and issues its child.
CREATE TABLE auth_refresh_tokens (
    id         BIGSERIAL PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,         -- hex SHA-256 of the token
    session_id TEXT NOT NULL REFERENCES auth_sessions (id) ON DELETE CASCADE,
    parent_id  BIGINT,                      -- the token it replaced
    created_at TIMESTAMPTZ NOT NULL,
    revoked_at TIMESTAMPTZ                          -- when it was used (rotated)
);

CREATE INDEX auth_refresh_tokens_session ON auth_refresh_tokens (session_id);

-- One live code per person and purpose; a new one replaces the old.
CREATE TABLE auth_one_time_codes (
    id         BIGSERIAL PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES auth_users (id) ON DELETE CASCADE,
    purpose    TEXT NOT NULL,                -- signin
    code_hash  TEXT NOT NULL,                -- hex SHA-256 of user id and code
    link_hash  TEXT NOT NULL UNIQUE,         -- hex SHA-256 of the link's token_hash
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL,
    tries      INTEGER NOT NULL DEFAULT 0,   -- wrong codes entered
    used_at    TIMESTAMPTZ
);

CREATE INDEX auth_one_time_codes_user ON auth_one_time_codes (user_id, purpose);

-- When a sign-in mail was last asked for, per address (staff or not, so the
-- limit does not tell who is staff). The address is kept as a hash.
CREATE TABLE auth_email_sends (
    address_hash TEXT PRIMARY KEY,
    last_sent_at TIMESTAMPTZ NOT NULL
);

CREATE INDEX auth_email_sends_at ON auth_email_sends (last_sent_at);

-- ES256 keys that sign access tokens, shared by every server on one store.
CREATE TABLE auth_signing_keys (
    kid         TEXT PRIMARY KEY,
    algorithm   TEXT NOT NULL,               -- ES256
    private_key BYTEA NOT NULL,               -- PKCS #8 DER
    created_at  TIMESTAMPTZ NOT NULL
);

CREATE TABLE auth_audit_log (
    id         BIGSERIAL PRIMARY KEY,
    at         TIMESTAMPTZ NOT NULL,
    action     TEXT NOT NULL,
    email      TEXT NOT NULL,
    user_id    TEXT NOT NULL DEFAULT '',
    session_id TEXT NOT NULL DEFAULT '',
    ip         TEXT NOT NULL DEFAULT '',
    detail     TEXT NOT NULL DEFAULT ''
);

CREATE INDEX auth_audit_log_at ON auth_audit_log (at);
