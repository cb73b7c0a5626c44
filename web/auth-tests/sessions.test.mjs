// Session time limits (GoTrue's session_expired) and the library errors of
// docs/requirements.md#staff-sign-in as the official @supabase/supabase-js
// client shows them against the real studio binary: a missing session, a
// token whose signature does not verify, and sign-out when the server has
// already ended the session.
//
// Run: npm --prefix web run test:auth (after make build); harness.mjs says
// which binary and store.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { newStore, startServe, makeClient, staffAddress, signInByCLI, sleep } from "./harness.mjs";

const email = staffAddress("ida");
const leaver = staffAddress("leo");

let store, server, anonKey;
const serveArgs = () => ["--data", store.dataDir, "--auth-rate-limit", "off", "--auth-refresh-rate-limit", "off"];

before(async () => {
  store = newStore();
  store.cli("staff", "add", email);
  store.cli("staff", "add", leaver);
  anonKey = store.cli("keys", "print-anon").trim();
  server = await startServe(serveArgs());
});

after(() => {
  server?.proc.kill("SIGTERM");
  store?.remove();
});

/** hasSession reports whether the client's storage still holds a session. */
const hasSession = (storage) => [...storage.keys()].some((k) => k.endsWith("-auth-token"));

test("session limits: inactivity and timebox end a session with session_expired", async () => {
  // A server on the same store whose sessions end after 3 s without a
  // refresh, or 8 s after the sign-in. Waits are measured from when a
  // sign-in or refresh was answered (the server's time is earlier); each
  // step has a second or more to spare, for a machine busy with other tests.
  const short = await startServe([...serveArgs(), "--session-inactivity-timeout", "3s", "--session-timebox", "8s"]);
  const until = (t) => sleep(t - Date.now());
  try {
    const idle = makeClient(short.url, anonKey);
    const busy = makeClient(short.url, anonKey);
    // Each session is made during verifyOtp: the time after it bounds it
    // from above; the printed code comes first, as the CLI is slow.
    const signIn = async (c) => {
      const token = store.cli("staff", "sign-in-code", email).trim();
      assert.equal((await c.auth.verifyOtp({ email, token, type: "email" })).error, null);
      return Date.now();
    };
    const idleAt = await signIn(idle.c);
    const busyAt = await signIn(busy.c);
    const events = [];
    idle.c.auth.onAuthStateChange((event) => events.push(event));
    const refresh = async (t) => {
      await until(t);
      assert.equal((await busy.c.auth.refreshSession()).error, null, "busy refreshes within the inactivity timeout");
    };

    await refresh(busyAt + 2000);
    await until(idleAt + 3300); // idle: over 3 s without a refresh
    const stale = await idle.c.auth.getUser();
    assert.equal(stale.error?.status, 403);
    assert.equal(stale.error?.code, "session_expired");
    const refused = await idle.c.auth.refreshSession();
    assert.equal(refused.error?.code, "session_expired");
    assert.equal(refused.error?.message, "Invalid Refresh Token: Session Expired (Inactivity)");
    // The client keeps a session whose access token has not expired (a
    // proactive refresh failed), but the server refuses it everywhere.
    assert.equal((await idle.c.auth.getUser()).error?.code, "session_expired");
    assert.ok(!events.includes("TOKEN_REFRESHED"), `events: ${events}`);

    assert.equal((await busy.c.auth.getUser()).error, null);
    await refresh(busyAt + 4000);
    await refresh(busyAt + 6000);
    await until(busyAt + 8300); // busy: over 8 s after its sign-in, 2.3 s after a refresh
    const boxed = await busy.c.auth.refreshSession();
    assert.equal(boxed.error?.code, "session_expired");
    assert.equal(boxed.error?.message, "Invalid Refresh Token: Session Expired");
  } finally {
    short.proc.kill("SIGTERM");
  }
});

test("library error: a missing session is AuthSessionMissingError for getUser and updateUser", async () => {
  const { c } = makeClient(server.url, anonKey);
  const got = await c.auth.getUser();
  assert.equal(got.data.user, null);
  assert.equal(got.error?.name, "AuthSessionMissingError");
  assert.equal(got.error?.message, "Auth session missing!");
  const updated = await c.auth.updateUser({ data: { theme: "dark" } });
  assert.equal(updated.data.user, null);
  assert.equal(updated.error?.name, "AuthSessionMissingError");
});

test("library error: getClaims refuses a token whose signature does not verify", async () => {
  const { c, fetched } = makeClient(server.url, anonKey);
  const { session } = await signInByCLI(c, store.cli, email);
  const [h, p, s] = session.access_token.split(".");
  // Claims changed (a higher role), signature kept: verified locally through the JWKS.
  const claims = JSON.parse(Buffer.from(p, "base64url"));
  const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, role: "service_role" })).toString("base64url")}.${s}`;
  fetched.length = 0;
  const bad = await c.auth.getClaims(forged);
  assert.equal(bad.data, null);
  assert.equal(bad.error?.name, "AuthInvalidJwtError");
  assert.equal(bad.error?.message, "Invalid JWT signature");
  assert.ok(!fetched.includes("GET /auth/v1/user"), `fetched ${fetched}`);
  // The server refuses it too.
  const res = await fetch(`${server.url}/auth/v1/user`, { headers: { apikey: anonKey, authorization: `Bearer ${forged}` } });
  assert.equal(res.status, 403);
  assert.equal(res.headers.get("x-sb-error-code"), "bad_jwt");
});

test("library error: sign-out resolves and clears storage when the session already ended elsewhere", async () => {
  // Ended by a global sign-out on another device: the server answers 403.
  const here = makeClient(server.url, anonKey);
  const there = makeClient(server.url, anonKey);
  await signInByCLI(here.c, store.cli, email);
  await signInByCLI(there.c, store.cli, email);
  assert.equal((await there.c.auth.signOut({ scope: "global" })).error, null);
  assert.ok(hasSession(here.storage));
  assert.equal((await here.c.auth.signOut()).error, null);
  assert.ok(!hasSession(here.storage), "local storage cleared");
  assert.equal((await here.c.auth.getSession()).data.session, null);

  // Ended because the person was removed ("studio staff remove").
  const removed = makeClient(server.url, anonKey);
  await signInByCLI(removed.c, store.cli, leaver);
  store.cli("staff", "remove", leaver);
  assert.equal((await removed.c.auth.signOut({ scope: "local" })).error, null);
  assert.ok(!hasSession(removed.storage), "local storage cleared");
});
