-- Mails that carry a secret (a sign-in code and link) are queued with their
-- body sealed with the secret key, never in clear (docs/decisions/0021).
-- Such a row's body is '' and its next_attempt_at is the far future, so a
-- previous release, whose sender claims rows by next_attempt_at, never sends
-- it; this release schedules it by sealed_next_attempt_at instead.
ALTER TABLE outbox ADD COLUMN sealed_body TEXT;             -- the body sealed; '' once sent
ALTER TABLE outbox ADD COLUMN sealed_next_attempt_at TEXT;  -- a sealed mail's due time, or lease

CREATE INDEX outbox_sealed_due ON outbox (sealed_next_attempt_at)
    WHERE sent_at IS NULL AND sealed_next_attempt_at IS NOT NULL;

-- The secret key the store's secrets are sealed with: one value sealed
-- with it (its id is in the value), written by the first server or command
-- that seals with a key. One given another key then refuses to seal
-- anything, and a command never makes a new key file beside it.
CREATE TABLE secret_key_check (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    sealed     TEXT NOT NULL,
    created_at TEXT NOT NULL
) STRICT;
