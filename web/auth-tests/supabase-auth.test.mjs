// The official @supabase/supabase-js client against the real studio binary:
// staff sign-in by a mailed code (read from a real SMTP peer), getUser,
// getClaims through the JWKS, refresh and rotation, sign-out seen from a
// second client, and the library's errors.
//
// Run: node --test web/auth-tests/ (after make build). STUDIO_BIN names the
// binary (default bin/studio); with STUDIO_TEST_DATABASE_URL set
// (scripts/with-postgres) the binary stores in that PostgreSQL, else in
// SQLite in a temporary directory.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { randomBytes } from "node:crypto";
import { createClient } from "@supabase/supabase-js";
import { startCapture, body } from "./smtp-capture.mjs";

const bin = resolve(process.env.STUDIO_BIN ?? join(import.meta.dirname, "../../bin/studio"));
const pg = process.env.STUDIO_TEST_DATABASE_URL ?? "";
const email = `ada+${randomBytes(4).toString("hex")}@studio.test`;
const pkceEmail = `grace+${randomBytes(4).toString("hex")}@studio.test`;
const recoverEmail = `mary+${randomBytes(4).toString("hex")}@studio.test`;
const changeEmail = `lin+${randomBytes(4).toString("hex")}@studio.test`;

let dataDir, server, base, anonKey, smtp;

function studio(...args) {
  return execFileSync(bin, [...args, "--data", dataDir], {
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: pg },
  });
}

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "studio-auth-"));
  smtp = await startCapture();
  studio("staff", "add", email, "--name", "Ada");
  studio("staff", "add", pkceEmail);
  studio("staff", "add", recoverEmail);
  studio("staff", "add", changeEmail);
  anonKey = studio("keys", "print-anon").trim();
  server = spawn(
    bin,
    ["serve", "--addr", "127.0.0.1:0", "--data", dataDir, "--smtp-url", smtp.url,
      "--notify-to", "team@studio.test", "--notify-from", "Studio <site@studio.test>",
      "--auth-rate-limit", "off", "--auth-refresh-rate-limit", "off"],
    { env: { ...process.env, DATABASE_URL: pg }, stdio: ["ignore", "pipe", "inherit"] },
  );
  base = await new Promise((resolve, reject) => {
    const lines = createInterface({ input: server.stdout });
    lines.on("line", (line) => {
      try {
        const entry = JSON.parse(line);
        if (entry.msg === "listening") resolve(`http://${entry.addr}`);
      } catch {
        // not a log line
      }
    });
    server.on("exit", (code) => reject(new Error(`studio serve exited ${code}`)));
  });
});

after(() => {
  server?.kill("SIGTERM");
  smtp?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** startServe runs "studio serve" with args and returns its base URL. */
async function startServe(args, env) {
  const proc = spawn(bin, ["serve", "--addr", "127.0.0.1:0", ...args], { env, stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise((resolve, reject) => {
    const lines = createInterface({ input: proc.stdout });
    lines.on("line", (line) => {
      try {
        const entry = JSON.parse(line);
        if (entry.msg === "listening") resolve(`http://${entry.addr}`);
      } catch {
        // not a log line
      }
    });
    proc.on("exit", (code) => reject(new Error(`studio serve exited ${code}`)));
  });
  return { proc, url };
}

/** client makes a client as the console does, with its own storage, and
 * records the URLs it fetches (with their times). */
function client(flowType = "implicit", origin = base) {
  const store = new Map();
  const fetched = [];
  const times = [];
  const c = createClient(origin, anonKey, {
    auth: {
      flowType,
      persistSession: true,
      autoRefreshToken: false,
      detectSessionInUrl: false,
      storage: {
        getItem: (k) => store.get(k) ?? null,
        setItem: (k, v) => void store.set(k, v),
        removeItem: (k) => void store.delete(k),
      },
    },
    // Node 20 has no WebSocket, which the realtime client looks for when it
    // is created; these tests do not use realtime, so a transport that
    // refuses to connect is enough.
    realtime: {
      transport: class {
        constructor() {
          throw new Error("realtime is not used by the auth tests");
        }
      },
    },
    global: {
      fetch: (url, init) => {
        fetched.push(`${init?.method ?? "GET"} ${new URL(url).pathname}`);
        times.push(Date.now());
        return fetch(url, init);
      },
    },
  });
  return { c, fetched, times };
}

/** signIn asks for a code by mail and verifies it. */
async function signIn(c) {
  const seen = smtp.mails.length;
  const { data, error } = await c.auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
  assert.equal(error, null);
  assert.deepEqual(data, { user: null, session: null });
  const text = body(await smtp.next(email, seen));
  const code = text.match(/\n {4}(\d{6})\n/)?.[1];
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
  const stranger = await c.auth.signInWithOtp({ email: `eve+${randomBytes(4).toString("hex")}@studio.test` });
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
  const code = text.match(/\n {4}(\d{6})\n/)?.[1];
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
  const nonce = body(await smtp.next(changeEmail, seen)).match(/\n {4}(\d{6})\n/)?.[1];
  assert.ok(nonce, "no nonce in the mail");

  const newAddress = `new-${changeEmail}`;
  const refused = await c.auth.updateUser({ email: newAddress });
  assert.equal(refused.error?.code, "reauthentication_needed");
  seen = smtp.mails.length;
  const asked = await c.auth.updateUser({ email: newAddress, nonce });
  assert.equal(asked.error, null);
  assert.equal(asked.data.user.email, changeEmail, "unchanged until confirmed");
  const confirm = body(await smtp.next(newAddress, seen)).match(/\n {4}(\d{6})\n/)?.[1];
  assert.ok(confirm, "no code in the mail to the new address");

  const { data, error } = await c.auth.verifyOtp({ email: newAddress, token: confirm, type: "email_change" });
  assert.equal(error, null);
  assert.equal(data.user.email, newAddress);
  assert.equal((await c.auth.getUser()).data.user.email, newAddress);
});

test("refresh retries transient server errors with back-off from 200 ms, then gives up", async () => {
  // A server whose database cannot be reached answers 500 to /token.
  const down = await startServe(["--data", dataDir + "-down"], {
    ...process.env,
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
