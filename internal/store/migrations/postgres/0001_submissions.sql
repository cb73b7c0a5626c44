-- Contact messages, sign-ups and the notification outbox.

CREATE TABLE contact_messages (
    id          TEXT PRIMARY KEY,           -- UUIDv7, time-ordered
    received_at TIMESTAMPTZ NOT NULL,
    name        TEXT NOT NULL,
    email       TEXT NOT NULL,
    company     TEXT,
    phone       TEXT,
    message     TEXT NOT NULL,
    spam        BOOLEAN NOT NULL DEFAULT FALSE
);

CREATE INDEX contact_messages_received_at ON contact_messages (received_at, id);

CREATE TABLE waitlist_entries (
    product_id TEXT NOT NULL,
    email      TEXT NOT NULL,               -- lower case
    joined_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (product_id, email)
);

CREATE TABLE newsletter_subscribers (
    email         TEXT PRIMARY KEY,         -- lower case
    subscribed_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE outbox (
    id                 BIGSERIAL PRIMARY KEY,
    contact_message_id TEXT REFERENCES contact_messages (id),
    mail_from          TEXT NOT NULL,
    mail_to            TEXT NOT NULL,       -- addresses, one per line
    reply_to           TEXT NOT NULL,
    subject            TEXT NOT NULL,
    body               TEXT NOT NULL,
    created_at         TIMESTAMPTZ NOT NULL,
    attempts           INTEGER NOT NULL DEFAULT 0,
    next_attempt_at    TIMESTAMPTZ NOT NULL, -- due, or leased by a sender until then
    sent_at            TIMESTAMPTZ,
    last_error         TEXT
);

CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE sent_at IS NULL;
