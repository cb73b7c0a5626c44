-- The staff console (rest/v1): who handled a contact message, and when.

ALTER TABLE contact_messages ADD COLUMN handled_at TEXT;
ALTER TABLE contact_messages ADD COLUMN handled_by TEXT;
