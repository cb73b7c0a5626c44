// TOTP MFA through the official @supabase/supabase-js client against the
// real studio binary: enrol, challenge and verify with codes computed here
// from the secret, the assurance levels, listFactors, a code used twice, a
// wrong code, an expired challenge, and unenrolling.
//
// Run: npm --prefix web run test:auth (after make build); harness.mjs says
// which binary and store.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { newStore, startServe, makeClient, staffAddress, totp, signInByCLI, sleep } from "./harness.mjs";

const email = staffAddress("kat");
const expiryEmail = staffAddress("joan");

let store, server, anonKey;
const serveArgs = () => ["--data", store.dataDir, "--site-url", "https://studio.test", "--auth-rate-limit", "off", "--auth-refresh-rate-limit", "off"];

before(async () => {
  store = newStore();
  store.cli("staff", "add", email, "--name", "Kat");
  store.cli("staff", "add", expiryEmail);
  anonKey = store.cli("keys", "print-anon").trim();
  server = await startServe(serveArgs());
});

after(() => {
  server?.proc.kill("SIGTERM");
  store?.remove();
});

/** wrongCode is a code none of the secret's steps near now has. */
function wrongCode(secret) {
  const near = [-1, 0, 1, 2].map((s) => totp(secret, s));
  return ["000000", "111111", "222222", "333333"].find((c) => !near.includes(c));
}

test("TOTP: enrol, challenge, verify (aal1 to aal2), listFactors, a code works once, unenroll", async () => {
  const { c } = makeClient(server.url, anonKey);
  await signInByCLI(c, store.cli, email);
  const events = [];
  c.auth.onAuthStateChange((event) => events.push(event));

  let aal = await c.auth.mfa.getAuthenticatorAssuranceLevel();
  assert.equal(aal.error, null);
  assert.equal(aal.data.currentLevel, "aal1");
  assert.equal(aal.data.nextLevel, "aal1");

  const enrolled = await c.auth.mfa.enroll({ factorType: "totp", friendlyName: "Phone" });
  assert.equal(enrolled.error, null);
  const { id: factorId, type, friendly_name, totp: t } = enrolled.data;
  assert.equal(type, "totp");
  assert.equal(friendly_name, "Phone");
  assert.match(t.secret, /^[A-Z2-7]{32}$/);
  assert.equal(t.uri, `otpauth://totp/studio.test:${email}?algorithm=SHA1&digits=6&issuer=studio.test&period=30&secret=${t.secret}`);
  assert.match(t.qr_code, /^data:image\/svg\+xml;utf-8,<svg [^#%]*<\/svg>$/);

  let factors = await c.auth.mfa.listFactors();
  assert.equal(factors.error, null);
  assert.deepEqual(factors.data.all.map((f) => [f.id, f.status]), [[factorId, "unverified"]]);
  assert.deepEqual(factors.data.totp, []);

  const challenge = await c.auth.mfa.challenge({ factorId });
  assert.equal(challenge.error, null);
  assert.equal(challenge.data.type, "totp");
  assert.ok(Math.abs(challenge.data.expires_at - (Date.now() / 1000 + 300)) < 5, `expires_at ${challenge.data.expires_at}`);
  const code = totp(t.secret);
  const verified = await c.auth.mfa.verify({ factorId, challengeId: challenge.data.id, code });
  assert.equal(verified.error, null);
  assert.ok(events.includes("MFA_CHALLENGE_VERIFIED"), `events: ${events}`);

  aal = await c.auth.mfa.getAuthenticatorAssuranceLevel();
  assert.equal(aal.data.currentLevel, "aal2");
  assert.equal(aal.data.nextLevel, "aal2");
  assert.deepEqual(aal.data.currentAuthenticationMethods.map((m) => m.method), ["totp", "otp"]);
  assert.equal((await c.auth.getClaims()).data.claims.aal, "aal2");
  factors = await c.auth.mfa.listFactors();
  assert.deepEqual(factors.data.totp.map((f) => [f.id, f.status]), [[factorId, "verified"]]);

  // The same code again, against a new challenge: refused.
  const reused = await c.auth.mfa.challengeAndVerify({ factorId, code });
  assert.equal(reused.error?.status, 422);
  assert.equal(reused.error?.code, "mfa_verification_failed");
  const wrong = await c.auth.mfa.challengeAndVerify({ factorId, code: wrongCode(t.secret) });
  assert.equal(wrong.error?.code, "mfa_verification_failed");
  assert.equal(wrong.error?.message, "Invalid TOTP code entered");
  // The next step's code (one step of skew) works once.
  const next = await c.auth.mfa.challengeAndVerify({ factorId, code: totp(t.secret, 1) });
  assert.equal(next.error, null);
  assert.equal((await c.auth.getUser()).error, null);

  // A new sign-in is aal1, with aal2 as next level; it cannot unenroll.
  const { c: other } = makeClient(server.url, anonKey);
  await signInByCLI(other, store.cli, email);
  aal = await other.auth.mfa.getAuthenticatorAssuranceLevel();
  assert.equal(aal.data.currentLevel, "aal1");
  assert.equal(aal.data.nextLevel, "aal2");
  const refused = await other.auth.mfa.unenroll({ factorId });
  assert.equal(refused.error?.code, "insufficient_aal");
  const named = await other.auth.mfa.enroll({ factorType: "totp", friendlyName: "Laptop" });
  assert.equal(named.error?.code, "insufficient_aal", "a second factor needs aal2");

  const taken = await c.auth.mfa.enroll({ factorType: "totp", friendlyName: "Phone" });
  assert.equal(taken.error?.status, 422);
  assert.equal(taken.error?.code, "mfa_factor_name_conflict");
  const gone = await c.auth.mfa.challenge({ factorId: "0a0b0c0d-0000-4000-8000-0000000000ff" });
  assert.equal(gone.error?.status, 404);
  assert.equal(gone.error?.code, "mfa_factor_not_found");

  const unenrolled = await c.auth.mfa.unenroll({ factorId });
  assert.equal(unenrolled.error, null);
  assert.deepEqual(unenrolled.data, { id: factorId });
  assert.deepEqual((await c.auth.mfa.listFactors()).data.all, []);
  assert.equal((await c.auth.refreshSession()).error, null);
  aal = await c.auth.mfa.getAuthenticatorAssuranceLevel();
  assert.equal(aal.data.currentLevel, "aal1");
  assert.equal(aal.data.nextLevel, "aal1");
});

test("an expired challenge: mfa_challenge_expired", async () => {
  // A second server on the same store whose challenges last 2 seconds.
  const short = await startServe([...serveArgs(), "--mfa-challenge-expiry", "2s"]);
  try {
    const { c } = makeClient(short.url, anonKey);
    await signInByCLI(c, store.cli, expiryEmail);
    const { data, error } = await c.auth.mfa.enroll({ factorType: "totp" });
    assert.equal(error, null);
    const challenge = await c.auth.mfa.challenge({ factorId: data.id });
    assert.equal(challenge.error, null);
    await sleep(2500);
    const late = await c.auth.mfa.verify({ factorId: data.id, challengeId: challenge.data.id, code: totp(data.totp.secret) });
    assert.equal(late.error?.status, 422);
    assert.equal(late.error?.code, "mfa_challenge_expired");
    // A new challenge works.
    assert.equal((await c.auth.mfa.challengeAndVerify({ factorId: data.id, code: totp(data.totp.secret) })).error, null);
  } finally {
    short.proc.kill("SIGTERM");
  }
});
