// Guessing sign-in codes through the official @supabase/supabase-js client
// against the real studio binary: ten wrong codes typed for one person lock
// their codes out (429 over_request_rate_limit with Retry-After, even for
// the right code of a fresh code), they are mailed, and "studio staff
// unlock" lets the code work at once. An address that is not staff's locks
// alike. The hour's end is tested in Go (TestCodesLockout), with a clock
// the test moves.
//
// Run: npm --prefix web run test:auth (after make build); harness.mjs says
// which binary and store.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { newStore, startServe, makeClient, staffAddress } from "./harness.mjs";
import { startCapture, body } from "./smtp-capture.mjs";

const email = staffAddress("kay");
// MaxFailures of internal/staff.
const maxFailures = 10;

let store, server, anonKey, smtp;

before(async () => {
  store = newStore();
  smtp = await startCapture();
  store.cli("staff", "add", email, "--name", "Kay");
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

/** guess types maxFailures wrong codes for address, each refused as wrong. */
async function guess(c, address) {
  for (let i = 0; i < maxFailures; i++) {
    const { error } = await c.auth.verifyOtp({ email: address, token: "000000", type: "email" });
    assert.equal(error?.code, "otp_expired", `wrong code ${i + 1} for ${address}`);
  }
}

/** verifyRaw posts a code to /verify and answers the response. */
function verifyRaw(address, token) {
  return fetch(`${server.url}/auth/v1/verify`, {
    method: "POST",
    headers: { apikey: anonKey, "Content-Type": "application/json" },
    body: JSON.stringify({ type: "email", email: address, token }),
  });
}

test("ten wrong codes lock a person's codes out; they are mailed; staff unlock lets the code work", async () => {
  const { c } = makeClient(server.url, anonKey);
  const seen = smtp.mails.length;
  await guess(c, email);

  // A fresh code, right, is refused too.
  const code = store.cli("staff", "sign-in-code", email).trim();
  const refused = await c.auth.verifyOtp({ email, token: code, type: "email" });
  assert.equal(refused.error?.status, 429);
  assert.equal(refused.error?.code, "over_request_rate_limit");
  assert.equal(refused.data.session, null);
  // Retry-After says when the hour ends (the client does not show headers).
  const res = await verifyRaw(email, code);
  assert.equal(res.status, 429);
  const retryAfter = Number(res.headers.get("Retry-After"));
  assert.ok(retryAfter > 3000 && retryAfter <= 3600, `Retry-After ${retryAfter}`);

  // The person hears of it.
  const text = body(await smtp.next(email, seen));
  assert.match(text, /were entered wrongly 10 times/);
  assert.match(text, new RegExp(`studio staff unlock ${email.replace(/[+.]/g, "\\$&")}`));

  // The operator clears it: the same code, never checked, now signs in.
  assert.match(store.cli("staff", "unlock", email), /unlocked the codes of/);
  const signedIn = await c.auth.verifyOtp({ email, token: code, type: "email" });
  assert.equal(signedIn.error, null);
  assert.equal(signedIn.data.user.email, email);
  assert.match(store.cli("audit", "list", "--format", "csv"), /codes_locked_out[\s\S]*codes_unlocked/);
});

test("an address that is not staff's locks alike", async () => {
  const { c } = makeClient(server.url, anonKey);
  const stranger = staffAddress("eve");
  await guess(c, stranger);
  const { error } = await c.auth.verifyOtp({ email: stranger, token: "123456", type: "email" });
  assert.equal(error?.status, 429);
  assert.equal(error?.code, "over_request_rate_limit");
});
