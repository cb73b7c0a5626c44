// The official @supabase/supabase-js client against the real studio binary:
// where a mailed link may lead (--redirect-urls, GoTrue's URI_ALLOW_LIST),
// and a link asked for with PKCE that signs in only with its verifier.
//
// Run: npm --prefix web run test:auth (after make build); harness.mjs says
// which binary and store.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startCapture, body } from "./smtp-capture.mjs";
import { newStore, startServe, makeClient, staffAddress, codeInMail } from "./harness.mjs";

const site = "https://studio.test";
let store, server, anonKey, smtp;

before(async () => {
  store = newStore();
  smtp = await startCapture();
  anonKey = store.cli("keys", "print-anon").trim();
  server = await startServe(["--data", store.dataDir, "--site-url", site, "--smtp-url", smtp.url,
    "--notify-to", "team@studio.test", "--notify-from", "Studio <site@studio.test>",
    "--redirect-urls", "https://preview.studio.test/app/*,https://preview.studio.test/docs/**",
    "--auth-rate-limit", "off", "--auth-refresh-rate-limit", "off"]);
});

after(() => {
  server?.proc.kill("SIGTERM");
  smtp?.close();
  store?.remove();
});

/** newStaff adds a member of staff (each test its own: one mail a minute per address). */
function newStaff(name) {
  const email = staffAddress(name);
  store.cli("staff", "add", email);
  return email;
}

/** askLink asks for a sign-in mail with c and returns the mail's text and link. */
async function askLink(c, email, emailRedirectTo) {
  const seen = smtp.mails.length;
  const { error } = await c.auth.signInWithOtp({ email, options: { shouldCreateUser: false, emailRedirectTo } });
  assert.equal(error, null);
  const text = body(await smtp.next(email, seen));
  const link = text.match(/^https?:\/\/\S+$/m)?.[0];
  assert.ok(link, `no link in the mail:\n${text}`);
  return { text, link: new URL(link) };
}

test("emailRedirectTo: kept when allowed, else the console; the link signs in", async () => {
  const cases = [
    { to: `${site}/%5Cevil.example/`, want: `${site}/admin` },
    { to: `${site}/\\evil.example/`, want: `${site}/admin` },
    { to: "https://evil.example/admin", want: `${site}/admin` },
    { to: `https://studio.test@evil.example/admin`, want: `${site}/admin` },
    { to: `${site}/admin/../contact`, want: `${site}/admin` },
    { to: `${site}/contact`, want: `${site}/admin` },
    { to: `${site}/admin/inbox?filter=spam`, want: `${site}/admin/inbox` },
    { to: "https://preview.studio.test/app/home", want: "https://preview.studio.test/app/home" },
    { to: "https://preview.studio.test/app/a/b", want: `${site}/admin` },
    { to: "https://preview.studio.test/docs/a/b", want: "https://preview.studio.test/docs/a/b" },
  ];
  for (const { to, want } of cases) {
    const email = newStaff("ada");
    const { c } = makeClient(server.url, anonKey);
    const { link } = await askLink(c, email, to);
    assert.equal(`${link.origin}${link.pathname}`, want, `emailRedirectTo ${to} gave ${link}`);
    assert.equal(link.searchParams.getAll("token_hash").length, 1, `${link}`);
    assert.equal(link.searchParams.get("type"), "magiclink");
    if (to.includes("filter=spam")) assert.equal(link.searchParams.get("filter"), "spam");
    // The link's token signs in, as the console does with it.
    const { data, error } = await c.auth.verifyOtp({ token_hash: link.searchParams.get("token_hash"), type: "magiclink" });
    assert.equal(error, null);
    assert.equal(data.user.email, email);
  }
});

test("resetPasswordForEmail: a hostile redirectTo gives the console", async () => {
  const email = newStaff("mary");
  const { c } = makeClient(server.url, anonKey);
  const seen = smtp.mails.length;
  assert.equal((await c.auth.resetPasswordForEmail(email, { redirectTo: `${site}/%5Cevil.example/` })).error, null);
  const link = new URL(body(await smtp.next(email, seen)).match(/^https?:\/\/\S+$/m)[0]);
  assert.equal(`${link.origin}${link.pathname}`, `${site}/admin`);
  assert.equal(link.searchParams.get("type"), "recovery");
});

test("PKCE: the link carries only a code, which verifyOtp refuses and exchangeCodeForSession takes once", async () => {
  const email = newStaff("grace");
  const { c } = makeClient(server.url, anonKey, "pkce");
  const { link } = await askLink(c, email, `${site}/admin/inbox`);
  assert.equal(`${link.origin}${link.pathname}`, `${site}/admin/inbox`);
  const code = link.searchParams.get("code");
  assert.ok(code, `no code in ${link}`);
  assert.equal(link.searchParams.get("token_hash"), null, "a PKCE link carries no token_hash");

  // Someone holding the link (its token) but not the verifier.
  const { c: thief } = makeClient(server.url, anonKey);
  for (const type of ["magiclink", "email"]) {
    const stolen = await thief.auth.verifyOtp({ token_hash: code, type });
    assert.equal(stolen.error?.name, "AuthApiError");
    assert.equal(stolen.error?.status, 400);
    assert.equal(stolen.error?.code, "flow_state_not_found");
    assert.equal(stolen.data.session, null);
  }
  const { c: other } = makeClient(server.url, anonKey, "pkce");
  assert.ok((await other.auth.exchangeCodeForSession(code)).error, "another client, without the verifier, must not sign in");

  // The device that asked: the code is still there for its verifier.
  const { data, error } = await c.auth.exchangeCodeForSession(code);
  assert.equal(error, null);
  assert.equal(data.user.email, email);
  assert.equal((await c.auth.getUser()).data.user.email, email);
  const again = await makeClient(server.url, anonKey).c.auth.verifyOtp({ token_hash: code, type: "magiclink" });
  assert.equal(again.error?.code, "otp_expired", "a used code is gone");
});

test("PKCE: the typed code of the mail still signs in", async () => {
  const email = newStaff("lin");
  const { c } = makeClient(server.url, anonKey, "pkce");
  const { text } = await askLink(c, email);
  const { data, error } = await c.auth.verifyOtp({ email, token: codeInMail(text), type: "email" });
  assert.equal(error, null);
  assert.equal(data.user.email, email);
});
