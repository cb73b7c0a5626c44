-- The Idempotency-Key of the request that sent a contact message (the
-- visitor's page, or a load balancer that retries a request on another
-- server): a repeated request with the same key is answered with the message
-- it first stored, and nothing is stored or mailed again. Without a key the
-- column is NULL, which the unique index allows any number of times.
-- Safe with the previous release still running: it never names the column.
ALTER TABLE contact_messages ADD COLUMN idempotency_key TEXT;
CREATE UNIQUE INDEX contact_messages_idempotency_key ON contact_messages (idempotency_key);
