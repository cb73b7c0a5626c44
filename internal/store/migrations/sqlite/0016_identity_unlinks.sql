-- The providers a member of staff unlinked: a provider that may vouch for
-- the person's domain does not tie its identity to them again on its own;
-- only a link they (or staff) make again does, and that removes the row.
-- Safe with the previous release still running: a new table it never names.
CREATE TABLE auth_identity_unlinks (
    user_id     TEXT NOT NULL REFERENCES auth_users (id) ON DELETE CASCADE,
    provider    TEXT NOT NULL,              -- auth_providers.name
    unlinked_at TEXT NOT NULL,
    PRIMARY KEY (user_id, provider)
) STRICT;
