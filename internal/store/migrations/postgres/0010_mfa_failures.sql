-- Wrong TOTP codes per factor, to lock the factor out when someone guesses
-- (auth.FactorFailures): how many since failed_since, the first wrong code
-- of the current window. A factor deleted (studio staff reset-mfa) takes
-- its count with it.
-- Safe with the previous release still running: it never names the columns,
-- and the defaults fill them in its inserts.
ALTER TABLE auth_mfa_factors ADD COLUMN failed_codes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE auth_mfa_factors ADD COLUMN failed_since TIMESTAMPTZ;
