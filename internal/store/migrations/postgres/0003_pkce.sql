-- PKCE (RFC 7636) for sign-in links: the challenge a client sent with its
-- request for a code. A link of a code with a challenge can be traded for a
-- session only with the matching verifier (grant_type=pkce).

ALTER TABLE auth_one_time_codes ADD COLUMN code_challenge TEXT NOT NULL DEFAULT '';
ALTER TABLE auth_one_time_codes ADD COLUMN code_challenge_method TEXT NOT NULL DEFAULT ''; -- s256 or plain
