-- Phone codes: a member of staff's phone number (E.164 digits without the
-- "+", GoTrue's form; '' for none), which a code sent by SMS signs in
-- (auth_one_time_codes of purpose sms); a phone second factor's number; and
-- the hash of the code a phone factor's challenge sent.
-- Safe with the previous release still running: it never names the columns,
-- and the defaults fill them in its inserts.
ALTER TABLE auth_users ADD COLUMN phone TEXT NOT NULL DEFAULT '';
CREATE UNIQUE INDEX auth_users_phone ON auth_users (phone) WHERE phone <> '';
ALTER TABLE auth_mfa_factors ADD COLUMN phone TEXT NOT NULL DEFAULT '';
ALTER TABLE auth_mfa_challenges ADD COLUMN code_hash TEXT NOT NULL DEFAULT '';
