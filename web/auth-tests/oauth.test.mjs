// The official @supabase/supabase-js client against the real studio binary
// and a real OpenID Connect provider (the certified oidc-provider package,
// idp/oidc-provider.mjs): "studio oauth add", signInWithOAuth through the
// provider's login page and back, exchangeCodeForSession,
// getUserIdentities, linkIdentity, signInWithIdToken, and the refusals.
//
// Run: npm --prefix web run test:auth (after make build); harness.mjs says
// which binary and store.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { newStore, startServe, makeClient, staffAddress, signInByCLI, bin, env } from "./harness.mjs";
import { startOIDCProvider, oidcLogin } from "./idp/oidc-provider.mjs";

// The site's public origin: the redirect URI registered at the provider is
// SITE/auth/v1/callback. The browser's hops to it go to the server instead.
const site = "https://studio.test";
const callback = `${site}/auth/v1/callback`;
const back = `${site}/admin/signed-in`;
// Provider names are unique per run: on PostgreSQL the test files share a store.
const suffix = randomBytes(3).toString("hex");
const name = `op-${suffix}`;
const allowing = `op-allow-${suffix}`;
const domain = `people-${suffix}.test`;
const client = { client_id: `studio-${suffix}`, client_secret: randomBytes(16).toString("hex"), redirect_uris: [callback] };

const ada = { sub: `ada-${suffix}`, email: staffAddress("ada"), email_verified: true, name: "Ada", password: "ada's pw" };
const adaWork = { sub: `ada-work-${suffix}`, email: `ada.work-${suffix}@elsewhere.test`, email_verified: true, password: "pw" };
const eve = { sub: `eve-${suffix}`, email: `eve-${suffix}@elsewhere.test`, email_verified: true, password: "pw" };
const grace = { sub: `grace-${suffix}`, email: `grace@${domain}`, email_verified: true, name: "Grace Hopper", password: "pw" };
const mallory = { sub: `mallory-${suffix}`, email: `mallory@${domain}`, email_verified: false, password: "pw" };

let store, server, anonKey, op;

before(async () => {
  store = newStore();
  anonKey = store.cli("keys", "print-anon").trim();
  op = await startOIDCProvider({ clients: [client], users: [ada, adaWork, eve, grace, mallory] });
  store.cli("staff", "add", ada.email);
  server = await startServe(["--data", store.dataDir, "--site-url", site, "--auth-rate-limit", "off", "--auth-refresh-rate-limit", "off"]);
});

after(async () => {
  for (const n of [name, allowing]) {
    try {
      store?.cli("oauth", "remove", n);
    } catch {
      // not added: its test failed first
    }
  }
  server?.proc.kill("SIGTERM");
  await op?.close();
  store?.remove();
});

/** cliAsync runs a studio command without blocking this process, whose
 * provider the command may call (discovery). */
async function cliAsync(...args) {
  const { stdout } = await promisify(execFile)(bin, [...args, "--data", store.dataDir], { encoding: "utf8", env });
  return stdout;
}

/** addProvider runs "studio oauth add" with the client secret in the environment. */
function addProvider(providerName, ...flags) {
  return promisify(execFile)(bin, ["oauth", "add", providerName, "--issuer", op.issuer, "--client-id", client.client_id,
    ...flags, "--data", store.dataDir], { encoding: "utf8", env: { ...env, STUDIO_OAUTH_CLIENT_SECRET: client.client_secret } })
    .then(({ stdout }) => stdout);
}

/** atServer is url (on the site's origin) on the test server. */
const atServer = (url) => {
  const u = new URL(url);
  return `${server.url}${u.pathname}${u.search}`;
};

/** redirectOf fetches url without following and returns its Location. */
async function redirectOf(url, init) {
  const res = await fetch(url, { redirect: "manual", ...init });
  assert.equal(res.status, 302, `${url}: ${res.status} ${await res.text()}`);
  return new URL(res.headers.get("location"));
}

/** signInAt follows authorizeUrl through the provider's login page as
 * user, then the provider's redirect to the studio's callback, and returns
 * where the studio sends the browser. */
async function signInAt(authorizeUrl, user) {
  const { callbackUrl } = await oidcLogin({ authorizeUrl: atServer(authorizeUrl), login: user.email, password: user.password });
  assert.ok(callbackUrl.startsWith(`${callback}?`), callbackUrl);
  return redirectOf(atServer(callbackUrl));
}

const sha256hex = (s) => createHash("sha256").update(s).digest("hex");

test("studio oauth add runs discovery; list shows the provider, never its secret", async () => {
  // name vouches for the staff's domain; allowing only for another one.
  assert.match(await addProvider(name, "--scopes", "offline_access", "--allow-domain", "studio.test"), new RegExp(`added provider ${name}`));
  assert.match(await addProvider(allowing, "--allow-domain", domain), new RegExp(`added provider ${allowing}`));
  const list = store.cli("oauth", "list", "--format", "json");
  const mine = JSON.parse(list).find((p) => p.name === name);
  assert.equal(mine.issuer, op.issuer);
  assert.equal(mine.client_id, client.client_id);
  assert.ok(!list.includes(client.client_secret), "list printed the client secret");
  await assert.rejects(cliAsync("oauth", "add", "nope", "--issuer", `${op.issuer}/nothing`, "--client-id", "x", "--client-secret", "y"),
    /discovery/);
});

test("signInWithOAuth (PKCE): the provider's login page, back to redirectTo with a code, exchangeCodeForSession", async () => {
  const { c } = makeClient(server.url, anonKey, "pkce");
  const { data, error } = await c.auth.signInWithOAuth({ provider: name, options: { redirectTo: back, scopes: "groups", skipBrowserRedirect: true } });
  assert.equal(error, null);
  const start = new URL(data.url);
  assert.equal(`${start.origin}${start.pathname}`, `${server.url}/auth/v1/authorize`);
  assert.equal(start.searchParams.get("provider"), name);
  assert.equal(start.searchParams.get("redirect_to"), back);
  assert.equal(start.searchParams.get("code_challenge_method"), "s256");
  assert.ok(start.searchParams.get("code_challenge"));

  // The studio sends the browser to the provider, with its own state, nonce and PKCE.
  const atProvider = await redirectOf(data.url);
  assert.equal(`${atProvider.origin}${atProvider.pathname}`, `${op.issuer}/auth`);
  const q = atProvider.searchParams;
  assert.equal(q.get("client_id"), client.client_id);
  assert.equal(q.get("redirect_uri"), callback);
  assert.equal(q.get("response_type"), "code");
  assert.deepEqual(q.get("scope").split(" "), ["openid", "email", "profile", "offline_access", "groups"]);
  assert.equal(q.get("code_challenge_method"), "S256");
  assert.notEqual(q.get("code_challenge"), start.searchParams.get("code_challenge"), "the client's challenge went to the provider");
  for (const p of ["state", "nonce"]) assert.ok(q.get(p)?.length >= 32, p);

  const end = await signInAt(data.url, ada);
  assert.equal(`${end.origin}${end.pathname}`, back);
  const code = end.searchParams.get("code");
  assert.ok(code, `no code at ${end}`);
  const exchanged = await c.auth.exchangeCodeForSession(code);
  assert.equal(exchanged.error, null);
  assert.equal(exchanged.data.user.email, ada.email);
  const ids = await c.auth.getUserIdentities();
  assert.equal(ids.error, null);
  const mine = ids.data.identities.find((i) => i.provider === name);
  assert.equal(mine?.id, ada.sub);
  assert.equal(mine.identity_data.email, ada.email);
});

test("signInWithOAuth (implicit): tokens in the fragment of redirectTo", async () => {
  const { c } = makeClient(server.url, anonKey, "implicit");
  const { data } = await c.auth.signInWithOAuth({ provider: name, options: { redirectTo: back, skipBrowserRedirect: true } });
  const end = await signInAt(data.url, ada);
  const hash = new URLSearchParams(end.hash.slice(1));
  assert.ok(hash.get("access_token") && hash.get("refresh_token"), `${end}`);
  const set = await c.auth.setSession({ access_token: hash.get("access_token"), refresh_token: hash.get("refresh_token") });
  assert.equal(set.error, null);
  assert.equal(set.data.user.email, ada.email);
});

test("refusals come back to redirectTo with error parameters, and create nobody", async () => {
  const { c } = makeClient(server.url, anonKey, "pkce");
  const cases = [
    { user: eve, provider: allowing, code: "signup_disabled" }, // not staff, not of an allowed domain
    { user: mallory, provider: allowing, code: "provider_email_needs_verification" }, // of the domain, address not verified
  ];
  for (const { user, provider, code } of cases) {
    const { data } = await c.auth.signInWithOAuth({ provider, options: { redirectTo: back, skipBrowserRedirect: true } });
    const end = await signInAt(data.url, user);
    assert.equal(`${end.origin}${end.pathname}`, back);
    assert.equal(end.searchParams.get("error"), "access_denied", `${end}`);
    assert.equal(end.searchParams.get("error_code"), code);
    assert.ok(end.searchParams.get("error_description"));
    assert.equal(end.searchParams.get("code"), null);
    assert.ok(!store.cli("staff", "list", "--format", "csv").includes(user.email), `${user.email} was added`);
  }
  const unknown = await fetch(`${server.url}/auth/v1/authorize?provider=nope-${suffix}`, { redirect: "manual" });
  assert.equal(unknown.status, 400);
  assert.match((await unknown.json()).msg, /Unsupported provider/);
});

test("a provider does not vouch for staff outside its domains: refused as a stranger is, until linked on purpose", async () => {
  // allowing vouches for people-….test only; Ada is staff, of studio.test.
  const { c } = makeClient(server.url, anonKey, "pkce");
  const outcomes = [];
  for (const user of [ada, eve]) {
    const { data } = await c.auth.signInWithOAuth({ provider: allowing, options: { redirectTo: back, skipBrowserRedirect: true } });
    const end = await signInAt(data.url, user);
    assert.equal(end.searchParams.get("code"), null, `${user.email} signed in: ${end}`);
    outcomes.push([...end.searchParams.entries()]);
  }
  assert.deepEqual(outcomes[0], outcomes[1], "a staff address is answered otherwise than a stranger's");
  assert.deepEqual(Object.fromEntries(outcomes[0]).error, "access_denied");
  // Each ID token its own (jti): one is accepted once.
  const adaToken = () => op.signIdToken({ sub: ada.sub, email: ada.email, email_verified: true, jti: randomBytes(8).toString("hex") });
  const byToken = await c.auth.signInWithIdToken({ provider: allowing, token: adaToken() });
  assert.equal(byToken.data.session, null);
  assert.equal(byToken.error?.code, "signup_disabled");
  const adaId = JSON.parse(store.cli("staff", "list", "--format", "json")).find((p) => p.email === ada.email).id;
  const linked = () => store.cli("audit", "list", "--format", "json");
  assert.ok(!JSON.parse(linked()).some((e) => e.action === "identity_linked" && e.detail === allowing), "the refused identity was linked");
  assert.match(linked(), /not vouched: the address is outside the provider's domains/);

  // An operator links Ada's account there: it signs her in from then on.
  assert.match(store.cli("staff", "link", ada.email, "--provider", allowing, "--subject", ada.sub), new RegExp(`linked ${ada.sub}`));
  const { data } = await c.auth.signInWithOAuth({ provider: allowing, options: { redirectTo: back, skipBrowserRedirect: true } });
  const end = await signInAt(data.url, ada);
  const { data: session, error } = await c.auth.exchangeCodeForSession(end.searchParams.get("code"));
  assert.equal(error, null);
  assert.equal(session.user.id, adaId);

  // Unlinked, it stays unlinked.
  const identity = (await c.auth.getUserIdentities()).data.identities.find((i) => i.provider === allowing);
  assert.equal((await c.auth.unlinkIdentity(identity)).error, null);
  const again = await c.auth.signInWithIdToken({ provider: allowing, token: adaToken() });
  assert.equal(again.data.session, null, "an unlinked identity signed in");
  assert.equal(again.error?.code, "signup_disabled");
});

test("an allowed domain adds its person as staff on first sign-in", async () => {
  const { c } = makeClient(server.url, anonKey, "pkce");
  const { data } = await c.auth.signInWithOAuth({ provider: allowing, options: { redirectTo: back, skipBrowserRedirect: true } });
  const end = await signInAt(data.url, grace);
  const { data: session, error } = await c.auth.exchangeCodeForSession(end.searchParams.get("code"));
  assert.equal(error, null);
  assert.equal(session.user.email, grace.email);
  assert.equal(session.user.user_metadata.name, "Grace Hopper");
  assert.ok(store.cli("staff", "list", "--format", "csv").includes(grace.email));
  assert.match(store.cli("audit", "list", "--format", "csv"), new RegExp(`staff_added,${grace.email.replace(".", "\\.")}`));
});

test("linkIdentity (OAuth): a signed-in person links an account at the provider", async () => {
  const { c } = makeClient(server.url, anonKey, "pkce");
  await signInByCLI(c, store.cli, ada.email);
  const { data, error } = await c.auth.linkIdentity({ provider: name, options: { redirectTo: back, skipBrowserRedirect: true } });
  assert.equal(error, null);
  assert.ok(data.url.startsWith(`${op.issuer}/auth?`), data.url);
  const { callbackUrl } = await oidcLogin({ authorizeUrl: data.url, login: adaWork.email, password: adaWork.password });
  const end = await redirectOf(atServer(callbackUrl));
  const exchanged = await c.auth.exchangeCodeForSession(end.searchParams.get("code"));
  assert.equal(exchanged.error, null);
  assert.equal(exchanged.data.user.email, ada.email);
  const ids = await c.auth.getUserIdentities();
  assert.ok(ids.data.identities.some((i) => i.provider === name && i.id === adaWork.sub), JSON.stringify(ids.data));
  assert.ok(!store.cli("staff", "list", "--format", "csv").includes(adaWork.email), "linking added the address as staff");

  // Without a session, there is nothing to link to.
  const res = await fetch(`${server.url}/auth/v1/user/identities/authorize?provider=${name}&skip_http_redirect=true`, { headers: { apikey: anonKey } });
  assert.equal(res.status, 401);
});

test("signInWithIdToken: a token minted by the provider signs in, once; bad nonce, wrong audience and a missing nonce are refused", async () => {
  const { c } = makeClient(server.url, anonKey);
  const nonce = randomBytes(16).toString("hex");
  const good = op.signIdToken({ sub: ada.sub, email: ada.email, email_verified: true, nonce: sha256hex(nonce) });
  const { data, error } = await c.auth.signInWithIdToken({ provider: name, token: good, nonce });
  assert.equal(error, null);
  assert.equal(data.user.email, ada.email);
  assert.ok(data.session.access_token);

  const refused = [
    { why: "bad nonce", token: good, nonce: "another nonce", message: /Nonces mismatch/ },
    { why: "nonce not sent", token: good, nonce: undefined, message: /should either both exist or not/ },
    { why: "wrong audience", token: op.signIdToken({ sub: ada.sub, email: ada.email, email_verified: true, aud: "another-client", nonce: sha256hex(nonce) }), nonce, message: /Unacceptable audience/ },
    { why: "expired", token: op.signIdToken({ sub: ada.sub, email: ada.email, email_verified: true, exp: Math.floor(Date.now() / 1000) - 60 }), nonce: undefined, message: /Bad ID token/ },
    { why: "not staff", token: op.signIdToken({ sub: eve.sub, email: eve.email, email_verified: true }), nonce: undefined, message: /Signups not allowed/ },
    { why: "used before", token: good, nonce, message: /ID token has already been used/ },
  ];
  for (const { why, token, nonce: sent, message } of refused) {
    const { data, error } = await c.auth.signInWithIdToken({ provider: name, token, nonce: sent });
    assert.ok(error, `${why}: no error`);
    assert.match(error.message, message, why);
    assert.equal(data.session, null, why);
  }
  assert.ok(!store.cli("staff", "list", "--format", "csv").includes(eve.email));
});

test("linkIdentity (ID token): links the token's account to the signed-in person, once", async () => {
  const { c } = makeClient(server.url, anonKey);
  await signInByCLI(c, store.cli, ada.email);
  const sub = `ada-phone-${suffix}`;
  const token = op.signIdToken({ sub, email: `ada.phone-${suffix}@elsewhere.test`, email_verified: true });
  const { error } = await c.auth.linkIdentity({ provider: name, token });
  assert.equal(error, null);
  const ids = await c.auth.getUserIdentities();
  assert.ok(ids.data.identities.some((i) => i.provider === name && i.id === sub), JSON.stringify(ids.data));
  // Linking it again (with another token: one is used once) is GoTrue's
  // refusal, not a new session.
  const again = await c.auth.linkIdentity({ provider: name, token: op.signIdToken({ sub, email: `ada.phone-${suffix}@elsewhere.test`, email_verified: true, jti: "again" }) });
  assert.equal(again.error?.status, 422);
  assert.equal(again.error?.code, "identity_already_exists");
  assert.equal(again.error?.message, "Identity is already linked");
});

test("unlinkIdentity: a provider's identity is unlinked; the e-mail identity, the last way in, is not", async () => {
  const { c } = makeClient(server.url, anonKey);
  const person = staffAddress("unlink");
  store.cli("staff", "add", person);
  await signInByCLI(c, store.cli, person);
  const only = (await c.auth.getUserIdentities()).data.identities;
  assert.deepEqual(only.map((i) => i.provider), ["email"]);
  const last = await c.auth.unlinkIdentity(only[0]);
  assert.equal(last.error?.code, "single_identity_not_deletable");
  assert.equal(last.error?.status, 422);

  const sub = `unlink-${suffix}`;
  const { error } = await c.auth.linkIdentity({ provider: name, token: op.signIdToken({ sub, email: `unlink-${suffix}@elsewhere.test`, email_verified: true }) });
  assert.equal(error, null);
  const linked = (await c.auth.getUserIdentities()).data.identities.find((i) => i.provider === name);
  assert.equal(linked?.id, sub);
  assert.equal((await c.auth.unlinkIdentity(linked)).error, null);
  assert.deepEqual((await c.auth.getUserIdentities()).data.identities.map((i) => i.provider), ["email"]);
  const again = await c.auth.unlinkIdentity(linked);
  assert.equal(again.error?.code, "identity_not_found");
});
