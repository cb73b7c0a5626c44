// Guessing TOTP codes through the official @supabase/supabase-js client
// against the real studio binary: ten wrong codes within the hour lock the
// factor out (429 over_request_rate_limit with Retry-After, even for the
// right code), its owner is mailed, and "studio staff reset-mfa" lets them
// enrol again. The hour's end is tested in Go (TestMFALockout), with a
// clock the test moves.
//
// Run: npm --prefix web run test:auth (after make build); harness.mjs says
// which binary and store.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { newStore, startServe, makeClient, staffAddress, totp, signInByCLI } from "./harness.mjs";
import { startCapture, body } from "./smtp-capture.mjs";

const email = staffAddress("lin");
// MaxFailures and MaxCodeTries of internal/staff.
const maxFailures = 10;
const triesPerChallenge = 5;

let store, server, anonKey, smtp;

before(async () => {
  store = newStore();
  smtp = await startCapture();
  store.cli("staff", "add", email, "--name", "Lin");
  anonKey = store.cli("keys", "print-anon").trim();
  server = await startServe(["--data", store.dataDir, "--site-url", "https://studio.test", "--smtp-url", smtp.url,
    "--notify-to", "team@studio.test", "--notify-from", "Studio <site@studio.test>",
    "--auth-rate-limit", "off", "--auth-refresh-rate-limit", "off"]);
});

after(() => {
  server?.proc.kill("SIGTERM");
  smtp?.close();
  store?.remove();
});

/** wrongCode is a code none of the secret's steps near now has. */
function wrongCode(secret) {
  const near = [-1, 0, 1, 2].map((s) => totp(secret, s));
  return ["000000", "111111", "222222", "333333"].find((c) => !near.includes(c));
}

test("ten wrong TOTP codes lock the factor out; the owner is mailed; reset-mfa lets them enrol again", async () => {
  const { c } = makeClient(server.url, anonKey);
  await signInByCLI(c, store.cli, email);
  const enrolled = await c.auth.mfa.enroll({ factorType: "totp", friendlyName: "Phone" });
  assert.equal(enrolled.error, null);
  const { id: factorId, totp: { secret } } = enrolled.data;
  assert.equal((await c.auth.mfa.challengeAndVerify({ factorId, code: totp(secret) })).error, null);

  // Someone else with a sign-in link guesses, taking new challenges as
  // each allows only a few tries.
  const { c: guesser } = makeClient(server.url, anonKey);
  await signInByCLI(guesser, store.cli, email);
  const seen = smtp.mails.length;
  const wrong = wrongCode(secret);
  let challengeId;
  for (let i = 0; i < maxFailures; i++) {
    if (i % triesPerChallenge === 0) {
      const challenge = await guesser.auth.mfa.challenge({ factorId });
      assert.equal(challenge.error, null);
      challengeId = challenge.data.id;
    }
    const { error } = await guesser.auth.mfa.verify({ factorId, challengeId, code: wrong });
    assert.equal(error?.code, "mfa_verification_failed", `wrong code ${i + 1}`);
  }

  // Now even the right code is refused.
  const refused = await guesser.auth.mfa.challengeAndVerify({ factorId, code: totp(secret, 1) });
  assert.equal(refused.error?.status, 429);
  assert.equal(refused.error?.code, "over_request_rate_limit");
  // Retry-After says when the hour ends (the client does not show headers).
  const token = (await guesser.auth.getSession()).data.session.access_token;
  const headers = { apikey: anonKey, Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
  const challenge = await guesser.auth.mfa.challenge({ factorId });
  const res = await fetch(`${server.url}/auth/v1/factors/${factorId}/verify`, {
    method: "POST", headers, body: JSON.stringify({ challenge_id: challenge.data.id, code: totp(secret, 1) }),
  });
  assert.equal(res.status, 429);
  const retryAfter = Number(res.headers.get("Retry-After"));
  assert.ok(retryAfter > 3000 && retryAfter <= 3600, `Retry-After ${retryAfter}`);

  // The owner hears of it.
  const text = body(await smtp.next(email, seen));
  assert.match(text, /10 wrong codes of your authenticator app "Phone"/);
  assert.match(text, /reset-mfa/);

  // The operator resets the factor: every session ends; the owner signs in
  // again and enrols a new one.
  const out = store.cli("staff", "reset-mfa", email);
  assert.match(out, /removed 1 factor\(s\)/);
  assert.ok((await c.auth.refreshSession()).error, "a session outlived reset-mfa");
  const { c: again } = makeClient(server.url, anonKey);
  await signInByCLI(again, store.cli, email);
  const fresh = await again.auth.mfa.enroll({ factorType: "totp", friendlyName: "New phone" });
  assert.equal(fresh.error, null);
  assert.equal((await again.auth.mfa.challengeAndVerify({ factorId: fresh.data.id, code: totp(fresh.data.totp.secret) })).error, null);
  assert.equal((await again.auth.mfa.getAuthenticatorAssuranceLevel()).data.currentLevel, "aal2");
});
