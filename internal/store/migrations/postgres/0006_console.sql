-- The staff console (rest/v1): who handled a contact message, and when.

ALTER TABLE contact_messages ADD COLUMN handled_at TIMESTAMPTZ;
ALTER TABLE contact_messages ADD COLUMN handled_by TEXT;

-- rest/v1 sorts text by bytes (COLLATE "C", as SQLite does), whatever the
-- database's collation: the inbox's order (newest first, then id) keeps an
-- index to walk.
CREATE INDEX contact_messages_inbox ON contact_messages (received_at, id COLLATE "C");

-- The console's open inbox (not spam, not handled, newest first) and its
-- count read this index alone.
CREATE INDEX contact_messages_open ON contact_messages (spam, handled_at, received_at, id COLLATE "C");
