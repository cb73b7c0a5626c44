// The official @supabase/supabase-js client against the real studio binary:
// staff sign-in by a mailed code (read from a real SMTP peer), getUser,
// getClaims through the JWKS, refresh and rotation, sign-out seen from a
// second client, and the library's errors.
//
// Run: npm --prefix web run test:auth (after make build); harness.mjs says
// which binary and store.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startCapture, body } from "./smtp-capture.mjs";
import { env, newStore, startServe, makeClient, staffAddress, codeInMail } from "./harness.mjs";

const email = staffAddress("ada");
const pkceEmail = staffAddress("grace");
const recoverEmail = staffAddress("mary");
const changeEmail = staffAddress("lin");

let store, server, base, anonKey, smtp;
const studio = (...args) => store.cli(...args);

before(async () => {
  store = newStore();
  smtp = await startCapture();
  studio("staff", "add", email, "--name", "Ada");
  studio("staff", "add", pkceEmail);
  studio("staff", "add", recoverEmail);
  studio("staff", "add", changeEmail);
  anonKey = studio("keys", "print-anon").trim();
  server = await startServe(["--data", store.dataDir, "--smtp-url", smtp.url,
    "--notify-to", "team@studio.test", "--notify-from", "Studio <site@studio.test>",
    "--auth-rate-limit", "off", "--auth-refresh-rate-limit", "off"]);
  base = server.url;
});

after(() => {
  server?.proc.kill("SIGTERM");
  smtp?.close();
  store?.remove();
});

/** client makes a client of the server. */
const client = (flowType = "implicit", origin = base) => makeClient(origin, anonKey, flowType);

/** signIn asks for a code by mail and verifies it. */
async function signIn(c) {
  const seen = smtp.mails.length;
  const { data, error } = await c.auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
  assert.equal(error, null);
  assert.deepEqual(data, { user: null, session: null });
  const text = body(await smtp.next(email, seen));
  const code = codeInMail(text);
  assert.ok(code, `no code in the mail:\n${text}`);
  assert.match(text, /token_hash=[\w-]+&type=magiclink/);
  const verified = await c.auth.verifyOtp({ email, token: code, type: "email" });
  assert.equal(verified.error, null);
  return verified.data;
}

/** signInByCLI signs in with a code from "studio staff sign-in-code" (the
 * per-address mail limit allows one mail a minute). */
async function signInByCLI(c) {
  const code = studio("staff", "sign-in-code", email).trim();
  const { data, error } = await c.auth.verifyOtp({ email, token: code, type: "email" });
  assert.equal(error, null);
  return data;
}

test("sign in by a mailed code, getUser, getClaims through the JWKS", async () => {
  const { c, fetched } = client();
  const events = [];
  c.auth.onAuthStateChange((event) => events.push(event));
  const { session, user } = await signIn(c);
  assert.equal(user.email, email);
  assert.equal(user.aud, "authenticated");
  assert.equal(user.role, "authenticated");
  assert.equal(user.is_anonymous, false);
  assert.deepEqual(user.app_metadata, { provider: "email", providers: ["email"] });
  assert.deepEqual(user.user_metadata, { name: "Ada" });
  assert.equal(session.token_type, "bearer");
  assert.ok(session.expires_at > Date.now() / 1000);
  assert.ok(events.includes("SIGNED_IN"), `events: ${events}`);

  const got = await c.auth.getUser();
  assert.equal(got.error, null);
  assert.equal(got.data.user.id, user.id);

  fetched.length = 0;
  const claims = await c.auth.getClaims();
  assert.equal(claims.error, null);
  assert.equal(claims.data.claims.sub, user.id);
  assert.equal(claims.data.claims.role, "authenticated");
  assert.equal(claims.data.claims.aal, "aal1");
  assert.equal(claims.data.header.alg, "ES256");
  assert.deepEqual(fetched, ["GET /auth/v1/.well-known/jwks.json"], "verified locally with the JWKS, without GET /user");

  // A token whose signature was changed fails locally.
  const [h, p, s] = session.access_token.split(".");
  const forged = `${h}.${p}.${s.startsWith("A") ? "B" : "A"}${s.slice(1)}`;
  const bad = await c.auth.getClaims(forged);
  assert.equal(bad.data, null);
  assert.equal(bad.error?.message, "Invalid JWT signature");
});

test("wrong code and the per-address mail limit: GoTrue's error codes", async () => {
  const { c } = client();
  const wrong = await c.auth.verifyOtp({ email, token: "000000", type: "email" });
  assert.equal(wrong.error?.name, "AuthApiError");
  assert.equal(wrong.error?.status, 403);
  assert.equal(wrong.error?.code, "otp_expired");
  // The first test's mail was less than a minute ago.
  const again = await c.auth.signInWithOtp({ email });
  assert.equal(again.error?.status, 429);
  assert.equal(again.error?.code, "over_email_send_rate_limit");
  assert.match(again.error?.message, /you can only request this after \d+ seconds/);
  // Someone who is not staff gets the same answer as staff, and no mail.
  const seen = smtp.mails.length;
  const stranger = await c.auth.signInWithOtp({ email: staffAddress("eve") });
  assert.equal(stranger.error, null);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(smtp.mails.length, seen);
});

test("refresh rotates the tokens; a token reused after the grace window ends the session", async () => {
  const { c } = client();
  const { session: first } = await signInByCLI(c);
  const refreshed = await c.auth.refreshSession();
  assert.equal(refreshed.error, null);
  assert.notEqual(refreshed.data.session.refresh_token, first.refresh_token);
  assert.notEqual(refreshed.data.session.access_token, first.access_token);
  assert.equal((await c.auth.getUser()).error, null);

  await new Promise((r) => setTimeout(r, 10_500));
  const { c: thief } = client();
  const reused = await thief.auth.refreshSession({ refresh_token: first.refresh_token });
  assert.equal(reused.error?.code, "refresh_token_already_used");
  // The whole session is gone: the current access token stops working at once.
  const after = await c.auth.getUser();
  assert.equal(after.error?.name, "AuthSessionMissingError");
});

test("sign-out: others, then global, seen from the other clients", async () => {
  const a = client().c;
  const b = client().c;
  const d = client().c;
  await signInByCLI(a);
  await signInByCLI(b);
  await signInByCLI(d);

  assert.equal((await a.auth.signOut({ scope: "others" })).error, null);
  assert.equal((await a.auth.getUser()).error, null, "a keeps its session");
  const bUser = await b.auth.getUser();
  assert.equal(bUser.error?.name, "AuthSessionMissingError");
  // Sign-out ignores the server's 403 session_not_found and clears locally.
  assert.equal((await d.auth.signOut()).error, null);
  assert.equal((await d.auth.getSession()).data.session, null);

  assert.equal((await a.auth.signOut()).error, null);
  assert.equal((await a.auth.getSession()).data.session, null);
  const missing = await a.auth.getUser();
  assert.equal(missing.error?.name, "AuthSessionMissingError");
  assert.equal(missing.error?.message, "Auth session missing!");
});

test("PKCE: the link's code is exchanged for a session with the stored verifier", async () => {
  const { c, fetched } = client("pkce");
  const seen = smtp.mails.length;
  const asked = await c.auth.signInWithOtp({ email: pkceEmail });
  assert.equal(asked.error, null);
  const link = body(await smtp.next(pkceEmail, seen)).match(/https?:\/\/\S+/)?.[0];
  assert.ok(link, "no link in the mail");
  const url = new URL(link);
  assert.equal(url.pathname, "/admin");
  const code = url.searchParams.get("code");
  assert.ok(code, `no code in ${link}`);

  const { c: other } = client("pkce");
  const stolen = await other.auth.exchangeCodeForSession(code);
  assert.ok(stolen.error, "another client, without the verifier, must not sign in");

  const { data, error } = await c.auth.exchangeCodeForSession(code);
  assert.equal(error, null);
  assert.equal(data.user.email, pkceEmail);
  assert.ok(fetched.some((f) => f.startsWith("POST /auth/v1/token")));
  assert.equal((await c.auth.getUser()).data.user.email, pkceEmail);
});

test("recovery: resetPasswordForEmail mails a code; verifying it emits PASSWORD_RECOVERY", async () => {
  const { c } = client();
  const events = [];
  c.auth.onAuthStateChange((event) => events.push(event));
  const seen = smtp.mails.length;
  assert.equal((await c.auth.resetPasswordForEmail(recoverEmail)).error, null);
  const text = body(await smtp.next(recoverEmail, seen));
  const code = codeInMail(text);
  assert.ok(code, `no code in the mail:\n${text}`);
  const { data, error } = await c.auth.verifyOtp({ email: recoverEmail, token: code, type: "recovery" });
  assert.equal(error, null);
  assert.equal(data.user.email, recoverEmail);
  assert.ok(events.includes("PASSWORD_RECOVERY"), `events: ${events}`);
  // resend shares the address's limit of one mail a minute.
  const resent = await c.auth.resend({ type: "signup", email: recoverEmail });
  assert.equal(resent.error?.code, "over_email_send_rate_limit");
});

test("updateUser: data goes to user_metadata, USER_UPDATED is emitted", async () => {
  const { c } = client();
  await signInByCLI(c);
  const events = [];
  c.auth.onAuthStateChange((event) => events.push(event));
  const { data, error } = await c.auth.updateUser({ data: { theme: "dark" } });
  assert.equal(error, null);
  assert.deepEqual(data.user.user_metadata, { name: "Ada", theme: "dark" });
  assert.ok(events.includes("USER_UPDATED"), `events: ${events}`);
  assert.equal((await c.auth.getUser()).data.user.user_metadata.theme, "dark");
  const password = await c.auth.updateUser({ password: "hunter2" });
  assert.equal(password.error?.status, 422);
  assert.equal(password.error?.code, "validation_failed");
});

test("e-mail change: reauthenticate mails a nonce, updateUser asks, a code to the new address confirms", async () => {
  const { c } = client();
  const code = studio("staff", "sign-in-code", changeEmail).trim();
  assert.equal((await c.auth.verifyOtp({ email: changeEmail, token: code, type: "email" })).error, null);

  let seen = smtp.mails.length;
  assert.equal((await c.auth.reauthenticate()).error, null);
  const nonce = codeInMail(body(await smtp.next(changeEmail, seen)));
  assert.ok(nonce, "no nonce in the mail");

  const newAddress = `new-${changeEmail}`;
  const refused = await c.auth.updateUser({ email: newAddress });
  assert.equal(refused.error?.code, "reauthentication_needed");
  seen = smtp.mails.length;
  const asked = await c.auth.updateUser({ email: newAddress, nonce });
  assert.equal(asked.error, null);
  assert.equal(asked.data.user.email, changeEmail, "unchanged until confirmed");
  const confirm = codeInMail(body(await smtp.next(newAddress, seen)));
  assert.ok(confirm, "no code in the mail to the new address");

  const { data, error } = await c.auth.verifyOtp({ email: newAddress, token: confirm, type: "email_change" });
  assert.equal(error, null);
  assert.equal(data.user.email, newAddress);
  assert.equal((await c.auth.getUser()).data.user.email, newAddress);
});

test("refresh retries transient server errors with back-off from 200 ms, then gives up", async () => {
  // A server whose database cannot be reached answers 500 to /token.
  const down = await startServe(["--data", store.dataDir + "-down"], {
    ...env,
    DATABASE_URL: "postgres://studio@127.0.0.1:1/none?connect_timeout=2",
  });
  try {
    const { c, fetched, times } = client("implicit", down.url);
    const { error } = await c.auth.refreshSession({ refresh_token: "any" });
    assert.equal(error?.name, "AuthRetryableFetchError");
    assert.ok(fetched.length >= 4, `${fetched.length} attempts`);
    const gaps = times.slice(1).map((t, i) => t - times[i]);
    assert.ok(gaps[0] >= 190 && gaps[1] >= 390 && gaps[2] >= 790, `gaps ${gaps}`);
  } finally {
    down.proc.kill("SIGTERM");
  }
});
