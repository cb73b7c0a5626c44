-- The staff console (rest/v1): who handled a contact message, and when.

ALTER TABLE contact_messages ADD COLUMN handled_at TEXT;
ALTER TABLE contact_messages ADD COLUMN handled_by TEXT;

-- The console's open inbox (not spam, not handled, newest first) and its
-- count read this index alone.
CREATE INDEX contact_messages_open ON contact_messages (spam, handled_at, received_at, id);
