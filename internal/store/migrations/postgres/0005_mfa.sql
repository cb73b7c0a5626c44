-- TOTP second factors (MFA): a user's factors, the challenges a code is
-- verified against, and which factor raised a session to aal2. The TOTP
-- secret is sealed with AES-GCM under the server's MFA key, never in clear.

CREATE TABLE auth_mfa_factors (
    id                 TEXT PRIMARY KEY,          -- UUID
    user_id            TEXT NOT NULL REFERENCES auth_users (id) ON DELETE CASCADE,
    friendly_name      TEXT NOT NULL DEFAULT '',
    factor_type        TEXT NOT NULL,             -- totp
    status             TEXT NOT NULL,             -- unverified, verified
    secret             TEXT NOT NULL,             -- sealed TOTP secret
    last_used_step     BIGINT NOT NULL DEFAULT 0, -- time step of the last code accepted
    created_at         TIMESTAMPTZ NOT NULL,
    updated_at         TIMESTAMPTZ NOT NULL,
    last_challenged_at TIMESTAMPTZ
);

CREATE INDEX auth_mfa_factors_user ON auth_mfa_factors (user_id, created_at);
CREATE UNIQUE INDEX auth_mfa_factors_name ON auth_mfa_factors (user_id, friendly_name) WHERE friendly_name <> '';

CREATE TABLE auth_mfa_challenges (
    id          TEXT PRIMARY KEY,                 -- UUID
    factor_id   TEXT NOT NULL REFERENCES auth_mfa_factors (id) ON DELETE CASCADE,
    ip          TEXT NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL,
    expires_at  TIMESTAMPTZ NOT NULL,
    tries       INTEGER NOT NULL DEFAULT 0,       -- wrong codes entered
    verified_at TIMESTAMPTZ
);

CREATE INDEX auth_mfa_challenges_factor ON auth_mfa_challenges (factor_id);

ALTER TABLE auth_sessions ADD COLUMN factor_id TEXT NOT NULL DEFAULT '';
