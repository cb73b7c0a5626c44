-- Wrong sign-in codes typed per person, mailed or sent by SMS, to lock that
-- person's codes out when someone guesses (auth.CodeFailures): how many
-- since failed_since, the first wrong code of the current window. The
-- person is a member of staff's id, or the hash of an address or number that
-- is no one's (auth.AddressHash, auth.PhoneHash), counted alike so that the
-- answers do not tell who is staff. studio staff unlock and reset-mfa delete
-- a person's row; a row whose window ended is rewritten by the next wrong
-- code, or deleted by the next sign-in code mailed.
-- Safe with the previous release still running: a new table it never reads.
CREATE TABLE auth_code_failures (
    person       TEXT PRIMARY KEY,
    failed_codes INTEGER NOT NULL,
    failed_since TIMESTAMPTZ NOT NULL
);

CREATE INDEX auth_code_failures_since ON auth_code_failures (failed_since);
