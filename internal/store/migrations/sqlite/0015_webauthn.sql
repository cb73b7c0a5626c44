-- Passkeys (WebAuthn) as second factors: the public key credential of each
-- factor of type webauthn (one per factor), and, on a challenge of such a
-- factor, the ceremony its verification checks the browser's answer against
-- (JSON: create or request, with the random challenge sent). Credential ids
-- and keys are base64url; a credential belongs to one factor only.
-- Safe with the previous release still running: a new table it never names,
-- and a column with a default.
CREATE TABLE auth_mfa_webauthn_credentials (
    factor_id          TEXT PRIMARY KEY REFERENCES auth_mfa_factors (id) ON DELETE CASCADE,
    credential_id      TEXT NOT NULL UNIQUE,
    public_key         TEXT NOT NULL,             -- COSE_Key
    sign_count         INTEGER NOT NULL DEFAULT 0, -- signature counter of the last assertion accepted
    aaguid             TEXT NOT NULL DEFAULT '',  -- the authenticator's model
    transports         TEXT NOT NULL DEFAULT '',  -- comma-separated: usb, nfc, ble, internal, hybrid
    attestation_type   TEXT NOT NULL DEFAULT '',
    attestation_format TEXT NOT NULL DEFAULT '',
    flags              INTEGER NOT NULL DEFAULT 0, -- authenticator data flags (backup eligible, user verified)
    created_at         TEXT NOT NULL,
    used_at            TEXT
) STRICT;

ALTER TABLE auth_mfa_challenges ADD COLUMN webauthn TEXT NOT NULL DEFAULT '';
