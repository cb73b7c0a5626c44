-- One row that /readyz rewrites to learn whether this server can commit
-- (store.DB.ProbeCommit): a read or an empty transaction succeeds on a full
-- disk, a write does not. Nothing reads it.
-- Safe with the previous release still running: a new table it never names.
CREATE TABLE store_probe (
	id INTEGER PRIMARY KEY,
	probes INTEGER NOT NULL DEFAULT 0
);
