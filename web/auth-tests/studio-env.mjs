// The environment every studio a test starts runs with: SQLite in its
// temporary --data, or with STUDIO_TEST_DATABASE_URL set (scripts/with-postgres)
// that PostgreSQL. The tests of a run share that database, so on it they
// share one secret key too, as every server on one PostgreSQL must (the
// signing keys in it are sealed with it).
import { createHash } from "node:crypto";

export const pg = process.env.STUDIO_TEST_DATABASE_URL ?? "";
export const env = { ...process.env, DATABASE_URL: pg, ...(pg && { STUDIO_SECRET_KEY: sharedSecretKey(pg) }) };

/** sharedSecretKey is the secret key of the servers on the database at url:
 * the same in every test process of a run, different in every run. */
function sharedSecretKey(url) {
  return createHash("sha256").update(`studio test secret key for ${url}`).digest("base64");
}
