-- Contact messages, sign-ups and the notification outbox.
-- Times are TEXT in UTC, 2006-01-02T15:04:05.000000Z: fixed width, so they sort as they compare.

CREATE TABLE contact_messages (
    id          TEXT PRIMARY KEY,           -- UUIDv7, time-ordered
    received_at TEXT NOT NULL,
    name        TEXT NOT NULL,
    email       TEXT NOT NULL,
    company     TEXT,
    phone       TEXT,
    message     TEXT NOT NULL,
    spam        INTEGER NOT NULL DEFAULT 0 CHECK (spam IN (0, 1))
) STRICT;

CREATE INDEX contact_messages_received_at ON contact_messages (received_at, id);

CREATE TABLE waitlist_entries (
    product_id TEXT NOT NULL,
    email      TEXT NOT NULL,               -- lower case
    joined_at  TEXT NOT NULL,
    PRIMARY KEY (product_id, email)
) STRICT;

CREATE TABLE newsletter_subscribers (
    email         TEXT PRIMARY KEY,         -- lower case
    subscribed_at TEXT NOT NULL
) STRICT;

CREATE TABLE outbox (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    contact_message_id TEXT REFERENCES contact_messages (id),
    mail_from          TEXT NOT NULL,
    mail_to            TEXT NOT NULL,       -- addresses, one per line
    reply_to           TEXT NOT NULL,
    subject            TEXT NOT NULL,
    body               TEXT NOT NULL,
    created_at         TEXT NOT NULL,
    attempts           INTEGER NOT NULL DEFAULT 0,
    next_attempt_at    TEXT NOT NULL,       -- due, or leased by a sender until then
    sent_at            TEXT,
    last_error         TEXT
) STRICT;

CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE sent_at IS NULL;
