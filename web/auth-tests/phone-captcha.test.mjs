// Phone codes and the CAPTCHA through the official @supabase/supabase-js
// client against the real studio binary: signInWithOtp({phone}) sends a
// code through a small HTTP peer speaking Twilio's Messages API (the
// server's --sms-url), verifyOtp({phone, token, type: 'sms'}) signs in,
// resend, the per-number limit and wrong codes, the phone factor through
// supabase.auth.mfa; and, on a server with --captcha-provider pointed at a
// siteverify peer, options.captchaToken on every guarded call.
//
// Run: npm --prefix web run test:auth (after make build); harness.mjs says
// which binary and store.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { randomBytes, randomInt } from "node:crypto";
import { newStore, startServe, makeClient, staffAddress } from "./harness.mjs";

const accountToken = "tok-" + randomBytes(8).toString("hex"); // the --sms-url password: never in the logs
const messagesPath = "/2010-04-01/Accounts/AC0123/Messages.json";
const captchaSecret = "0x-captcha-secret";

/** newPhone is a new +E.164 number (the tests of a run may share one
 * PostgreSQL, where a number is one person's). */
const newPhone = () => `+4477${String(randomInt(1e8)).padStart(8, "0")}`;

/** listen starts an HTTP server on a free loopback port with handler. */
async function listen(handler) {
  const server = createServer(handler);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, base: `http://127.0.0.1:${server.address().port}` };
}

/** formBody reads a request's urlencoded body. */
async function formBody(req) {
  let raw = "";
  for await (const chunk of req) raw += chunk;
  return new URLSearchParams(raw);
}

/** The SMS peer: keeps every message with its Basic auth, answers as
 * Twilio does (201 with the message's sid); failNext set to a status makes
 * the next post fail with it (500: the gateway could not take it; 400: it
 * refuses the message), and posts counts every post. */
const texts = [];
const waiting = [];
let failNext = 0;
let posts = 0;
async function smsPeer(req, res) {
  const form = await formBody(req);
  const auth = Buffer.from((req.headers.authorization ?? "").replace(/^Basic /, ""), "base64").toString();
  posts++;
  if (failNext) {
    const status = failNext;
    failNext = 0;
    res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify({ code: status === 400 ? 21211 : 20500, message: "failed here" }));
    return;
  }
  const text = { path: req.url, auth, to: form.get("To"), from: form.get("From"), body: form.get("Body") };
  texts.push(text);
  waiting.splice(0).forEach((w) => w());
  res.writeHead(201, { "Content-Type": "application/json" }).end(JSON.stringify({ sid: `SM${randomBytes(16).toString("hex")}`, status: "queued" }));
}

/** nextText waits for the next message to `to` (after the first `seen`) and
 * returns it. */
async function nextText(to, seen) {
  for (;;) {
    const t = texts.slice(seen).find((m) => m.to === to);
    if (t) return t;
    await new Promise((resolve) => waiting.push(resolve));
  }
}

const codeOf = (text) => text.body.match(/\b(\d{6})\b/)?.[1];

/** The siteverify peer: a token it issued is good once. */
const issued = new Set();
const verified = [];
async function siteverifyPeer(req, res) {
  const form = await formBody(req);
  verified.push(form);
  const token = form.get("response");
  const ok = form.get("secret") === captchaSecret && issued.delete(token);
  res.writeHead(200, { "Content-Type": "application/json" })
    .end(JSON.stringify(ok ? { success: true } : { success: false, "error-codes": ["invalid-input-response"] }));
}
const captchaToken = () => {
  const t = `P1_${randomBytes(12).toString("hex")}`;
  issued.add(t);
  return t;
};

const ada = { email: staffAddress("ada"), phone: newPhone() };
const kat = { email: staffAddress("kat"), phone: newPhone() };
const lin = { email: staffAddress("lin"), phone: newPhone() };
let store, sms, siteverify, server, captchaServer, anonKey;
const logs = [];

before(async () => {
  store = newStore();
  for (const p of [ada, kat, lin]) store.cli("staff", "add", p.email, "--phone", p.phone);
  anonKey = store.cli("keys", "print-anon").trim();
  sms = await listen(smsPeer);
  siteverify = await listen(siteverifyPeer);
  const smsURL = new URL(sms.base + messagesPath);
  smsURL.username = "AC0123";
  smsURL.password = accountToken;
  const common = ["--data", store.dataDir, "--site-url", "https://studio.test", "--auth-rate-limit", "off", "--auth-refresh-rate-limit", "off",
    "--sms-url", smsURL.toString(), "--sms-from", "+15005550006"];
  server = await startServe(common);
  captchaServer = await startServe([...common, "--captcha-provider", "hcaptcha", "--captcha-secret", captchaSecret, "--captcha-site-key", "site-key-1",
    "--captcha-verify-url", `${siteverify.base}/siteverify`]);
  for (const s of [server, captchaServer]) s.proc.stdout.on("data", (chunk) => logs.push(String(chunk)));
});

after(() => {
  server?.proc.kill("SIGTERM");
  captchaServer?.proc.kill("SIGTERM");
  sms?.server.close();
  siteverify?.server.close();
  store?.remove();
});

test("signInWithOtp({phone}) sends a code through the Messages endpoint; verifyOtp({phone, token, type: 'sms'}) signs in", async () => {
  const { c } = makeClient(server.url, anonKey);
  const seen = texts.length;
  const sent = await c.auth.signInWithOtp({ phone: ada.phone });
  assert.equal(sent.error, null);
  assert.match(sent.data.messageId, /^[0-9a-f-]{36}$/);
  const text = await nextText(ada.phone, seen);
  assert.equal(text.path, messagesPath);
  assert.equal(text.auth, `AC0123:${accountToken}`);
  assert.equal(text.from, "+15005550006");
  assert.match(text.body, /studio\.test/);

  const { data, error } = await c.auth.verifyOtp({ phone: ada.phone, token: codeOf(text), type: "sms" });
  assert.equal(error, null);
  assert.equal(data.user.email, ada.email);
  assert.equal(data.user.phone, ada.phone.slice(1));
  const aal = await c.auth.mfa.getAuthenticatorAssuranceLevel();
  assert.deepEqual(aal.data.currentAuthenticationMethods.map((m) => m.method), ["otp"]);

  // A number that is not staff's: the same answer, nothing sent.
  const stranger = newPhone();
  const other = await makeClient(server.url, anonKey).c.auth.signInWithOtp({ phone: stranger });
  assert.equal(other.error, null);
  assert.match(other.data.messageId, /^[0-9a-f-]{36}$/);
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(texts.some((t) => t.to === stranger), false);
});

test("a second code within the interval is 429 over_sms_send_rate_limit; resend; wrong codes; the 5th kills the code", async () => {
  const { c } = makeClient(server.url, anonKey);
  const seen = texts.length;
  assert.equal((await c.auth.signInWithOtp({ phone: kat.phone, options: { channel: "whatsapp" } })).error, null);
  const text = await nextText(`whatsapp:${kat.phone}`, seen);
  assert.equal(text.from, "whatsapp:+15005550006");
  for (const again of [
    () => c.auth.signInWithOtp({ phone: kat.phone }),
    () => c.auth.resend({ type: "sms", phone: kat.phone }),
  ]) {
    const { error } = await again();
    assert.equal(error?.status, 429);
    assert.equal(error?.code, "over_sms_send_rate_limit");
  }
  const code = codeOf(text);
  const wrong = code === "000000" ? "111111" : "000000";
  for (let i = 0; i < 5; i++) {
    const { error } = await c.auth.verifyOtp({ phone: kat.phone, token: wrong, type: "sms" });
    assert.equal(error?.status, 403);
    assert.equal(error?.code, "otp_expired");
  }
  const { error } = await c.auth.verifyOtp({ phone: kat.phone, token: code, type: "sms" });
  assert.equal(error?.code, "otp_expired", "the right code after 5 wrong ones");
});

test("the phone factor through supabase.auth.mfa: enrol, challenge sends a code, verify raises to aal2 with mfa/phone", async () => {
  const { c } = makeClient(server.url, anonKey);
  let seen = texts.length;
  assert.equal((await c.auth.signInWithOtp({ phone: lin.phone })).error, null);
  assert.equal((await c.auth.verifyOtp({ phone: lin.phone, token: codeOf(await nextText(lin.phone, seen)), type: "sms" })).error, null);

  const factorPhone = newPhone();
  const enrolled = await c.auth.mfa.enroll({ factorType: "phone", phone: factorPhone, friendlyName: "Mobile" });
  assert.equal(enrolled.error, null);
  assert.equal(enrolled.data.type, "phone");
  assert.equal(enrolled.data.phone, factorPhone.slice(1));
  const factorId = enrolled.data.id;

  seen = texts.length;
  const challenge = await c.auth.mfa.challenge({ factorId });
  assert.equal(challenge.error, null);
  assert.equal(challenge.data.type, "phone");
  const code = codeOf(await nextText(factorPhone, seen));
  const wrong = await c.auth.mfa.verify({ factorId, challengeId: challenge.data.id, code: code === "000000" ? "111111" : "000000" });
  assert.equal(wrong.error?.code, "mfa_verification_failed");
  const again = await c.auth.mfa.challenge({ factorId });
  assert.equal(again.error?.code, "over_sms_send_rate_limit");

  const ok = await c.auth.mfa.verify({ factorId, challengeId: challenge.data.id, code });
  assert.equal(ok.error, null);
  const aal = await c.auth.mfa.getAuthenticatorAssuranceLevel();
  assert.equal(aal.data.currentLevel, "aal2");
  assert.deepEqual(aal.data.currentAuthenticationMethods.map((m) => m.method), ["mfa/phone", "otp"]);
  const factors = await c.auth.mfa.listFactors();
  assert.deepEqual(factors.data.phone.map((f) => [f.id, f.status]), [[factorId, "verified"]]);
});

test("CAPTCHA: options.captchaToken is required on signInWithOtp, verifyOtp, resetPasswordForEmail and resend; refresh needs none", async () => {
  const { c } = makeClient(captchaServer.url, anonKey);
  const refused = (r) => r.error?.status === 400 && r.error?.code === "captcha_failed";
  const calls = {
    "signInWithOtp by e-mail": (captchaToken) => c.auth.signInWithOtp({ email: ada.email, options: { captchaToken } }),
    "resetPasswordForEmail": (captchaToken) => c.auth.resetPasswordForEmail(ada.email, { captchaToken }),
    "resend by e-mail": (captchaToken) => c.auth.resend({ type: "signup", email: ada.email, options: { captchaToken } }),
    "resend by phone": (captchaToken) => c.auth.resend({ type: "sms", phone: ada.phone, options: { captchaToken } }),
    "verifyOtp": (captchaToken) => c.auth.verifyOtp({ phone: ada.phone, token: "000000", type: "sms", options: { captchaToken } }),
  };
  for (const [name, call] of Object.entries(calls)) {
    assert.ok(refused(await call(undefined)), `${name} without a token`);
    assert.ok(refused(await call("forged")), `${name} with a forged token`);
    assert.ok(!refused(await call(captchaToken())), `${name} with a good token`);
  }

  // A whole sign-in by phone, each token verified once with the provider.
  const phone = newPhone();
  store.cli("staff", "add", staffAddress("joan"), "--phone", phone);
  const seen = texts.length;
  assert.ok(refused(await c.auth.signInWithOtp({ phone })));
  const before = verified.length;
  const token = captchaToken();
  assert.equal((await c.auth.signInWithOtp({ phone, options: { captchaToken: token } })).error, null);
  assert.deepEqual(verified.slice(before).map((f) => [f.get("secret"), f.get("response"), f.get("remoteip")]), [[captchaSecret, token, "127.0.0.1"]]);
  const code = codeOf(await nextText(phone, seen));
  assert.ok(refused(await c.auth.verifyOtp({ phone, token: code, type: "sms", options: { captchaToken: token } })), "a token used twice");
  const signedIn = await c.auth.verifyOtp({ phone, token: code, type: "sms", options: { captchaToken: captchaToken() } });
  assert.equal(signedIn.error, null);
  const refreshed = await c.auth.refreshSession();
  assert.equal(refreshed.error, null);
});

test("a message the gateway refuses is logged, not sent again, and the account's token never is", async () => {
  const phone = newPhone();
  store.cli("staff", "add", staffAddress("mary"), "--phone", phone);
  failNext = 400;
  const before = posts;
  assert.equal((await makeClient(server.url, anonKey).c.auth.signInWithOtp({ phone })).error, null);
  for (let i = 0; i < 50 && !logs.join("").includes("send a code"); i++) await new Promise((r) => setTimeout(r, 50));
  assert.match(logs.join(""), /send a code/);
  assert.equal(logs.join("").includes(accountToken), false);
  await new Promise((r) => setTimeout(r, 1500)); // past the first retry's wait
  assert.equal(posts - before, 1);
  assert.equal(texts.some((t) => t.to === phone), false);
});

test("a message the gateway could not take is sent again, and the code arrives", async () => {
  const phone = newPhone();
  store.cli("staff", "add", staffAddress("noor"), "--phone", phone);
  failNext = 500;
  const seen = texts.length;
  const before = posts;
  assert.equal((await makeClient(server.url, anonKey).c.auth.signInWithOtp({ phone })).error, null);
  const text = await nextText(phone, seen);
  assert.match(codeOf(text), /^\d{6}$/);
  assert.equal(posts - before, 2);
});
