// SAML single sign-on through a real IdP (SimpleSAMLphp, idp/saml-idp.mjs)
// with the official @supabase/supabase-js client against the real studio
// binary: signInWithSSO by domain and by provider id, the IdP's own login,
// the SAMLResponse posted to the ACS as the IdP's page posts it, and the
// session (PKCE or implicit) at redirect_to; each refusal comes back to
// redirect_to with the error and no token.
//
// Run: npm --prefix web run test:auth (after make build); harness.mjs says
// which binary and store.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { newStore, startServe, makeClient } from "./harness.mjs";
import {
  startSAMLIdP, samlLogin, buildAuthnRequestURL, parseAuthnRequestURL, decodeSAMLResponse,
} from "./idp/saml-idp.mjs";

// The studio's public origin: what the IdP knows it by. The ACS posts go to
// the server itself, as a proxy in front of it would pass them.
const site = "https://studio.test";
const sp = { spEntityId: `${site}/auth/v1/sso/saml/metadata`, spAcsUrl: `${site}/auth/v1/sso/saml/acs` };
const redirectTo = `${site}/admin/signed-in`;

// The tests of a run may share one PostgreSQL: this file's SSO domain is its own.
const run = randomBytes(4).toString("hex");
const domain = `sso-${run}.test`;
const ada = { username: "ada", password: "ada's pw", email: `ada@${domain}` };
const grace = { username: "grace", password: "grace's pw", email: `grace@${domain}` };
const eve = { username: "eve", password: "eve's pw", email: `eve@elsewhere-${run}.test` };
// Staff, but not of the provider's domain.
const bob = { username: "bob", password: "bob's pw", email: `bob@staff-${run}.test` };

let store, server, anonKey, idp, providerId;
const extraIdPs = [];

before(async () => {
  store = newStore();
  anonKey = store.cli("keys", "print-anon").trim();
  store.cli("staff", "add", ada.email);
  store.cli("staff", "add", bob.email);
  idp = await startSAMLIdP({ ...sp, users: [ada, grace, eve, bob], otherSps: [{ entityId: "https://elsewhere.test/sp", acsUrl: "https://elsewhere.test/acs" }] });
  server = await startServe(["--data", store.dataDir, "--site-url", site, "--rate-limit", "off",
    "--auth-rate-limit", "off", "--auth-refresh-rate-limit", "off"]);
  providerId = store.cli("sso", "add", "--metadata-url", idp.metadataUrl, "--domain", domain).trim();
});

after(async () => {
  server?.proc.kill("SIGTERM");
  await Promise.all([idp, ...extraIdPs].map((i) => i?.close()));
  store?.remove();
});

/** sameIdP starts another instance of the IdP (its entity id and key) that
 * answers as options say. */
async function sameIdP(options) {
  const other = await startSAMLIdP({ ...sp, users: [ada], entityId: idp.entityId, keyPem: idp.keyPem, certPem: idp.certPem, ...options });
  extraIdPs.push(other);
  return other;
}

/** start asks the studio for a sign-in with client c (flowType as made)
 * and returns the IdP URL. */
async function start(c, params) {
  const { data, error } = await c.auth.signInWithSSO({ ...params, options: { redirectTo, skipBrowserRedirect: true } });
  assert.equal(error, null);
  assert.ok(data.url.startsWith(`${idp.ssoUrl}?`), data.url);
  return data.url;
}

/** post posts what the IdP's page would post to the studio's ACS and
 * returns where the studio sends the browser. */
async function post({ samlResponse, relayState }) {
  const form = new URLSearchParams({ SAMLResponse: samlResponse });
  if (relayState !== undefined) form.set("RelayState", relayState);
  const res = await fetch(`${server.url}/auth/v1/sso/saml/acs`, { method: "POST", body: form, redirect: "manual" });
  assert.equal(res.status, 302, await res.text());
  return new URL(res.headers.get("location"));
}

/** assertRefused checks a refusal at to: the error of code in the query
 * (PKCE) and no code or token. */
function assertRefused(to, code, where = redirectTo) {
  assert.equal(`${to.origin}${to.pathname}`, where);
  const params = to.search ? to.searchParams : new URLSearchParams(to.hash.slice(1));
  assert.equal(params.get("error_code"), code, `${to}`);
  assert.ok(params.get("error") && params.get("error_description"), `${to}`);
  assert.equal(to.searchParams.get("code"), null, `${to}`);
  assert.ok(!to.hash.includes("access_token"), `${to}`);
}

/** isStaff reports whether the address is staff's. */
const isStaff = (email) => store.cli("staff", "list", "--format", "csv").includes(email);

test("signInWithSSO by domain and by provider id sends a signed AuthnRequest to the IdP", async () => {
  const { c } = makeClient(server.url, anonKey, "pkce");
  for (const params of [{ domain }, { domain: domain.toUpperCase() }, { providerId }]) {
    const url = await start(c, params);
    const request = parseAuthnRequestURL(url);
    assert.equal(request.issuer, sp.spEntityId);
    assert.equal(request.acsUrl, sp.spAcsUrl);
    assert.ok(request.relayState, url);
    assert.ok(new URL(url).searchParams.get("Signature"), url);
  }
});

test("a signed assertion signs in with PKCE: the code at redirect_to gives the session and the identity", async () => {
  const { c } = makeClient(server.url, anonKey, "pkce");
  const url = await start(c, { domain });
  const to = await post(await samlLogin({ url, username: ada.username, password: ada.password }));
  assert.equal(`${to.origin}${to.pathname}`, redirectTo);
  const code = to.searchParams.get("code");
  assert.ok(code, `${to}`);

  const { data, error } = await c.auth.exchangeCodeForSession(code);
  assert.equal(error, null);
  assert.equal(data.user.email, ada.email);
  assert.ok(data.session.access_token);
  const identity = data.user.identities.find((i) => i.provider === `sso:${providerId}`);
  assert.ok(identity, JSON.stringify(data.user.identities));
  assert.equal(identity.identity_data.email, ada.email);
  const { data: identities } = await c.auth.getUserIdentities();
  assert.ok(identities.identities.some((i) => i.provider === `sso:${providerId}`));
  // The code works once.
  assert.ok((await c.auth.exchangeCodeForSession(code)).error);
});

test("a signed assertion signs in (implicit): the tokens in redirect_to's fragment; a person of the domain is added as staff", async () => {
  const { c } = makeClient(server.url, anonKey, "implicit");
  assert.ok(!isStaff(grace.email));
  const url = await start(c, { providerId });
  const to = await post(await samlLogin({ url, username: grace.username, password: grace.password }));
  assert.equal(`${to.origin}${to.pathname}`, redirectTo);
  const params = new URLSearchParams(to.hash.slice(1));
  assert.ok(params.get("access_token") && params.get("refresh_token"), `${to}`);
  const { data, error } = await c.auth.getUser(params.get("access_token"));
  assert.equal(error, null);
  assert.equal(data.user.email, grace.email);
  assert.ok(isStaff(grace.email));
});

test("an unknown domain or provider: sso_provider_not_found", async () => {
  const { c } = makeClient(server.url, anonKey, "pkce");
  for (const params of [{ domain: `unknown-${run}.test` }, { providerId: "00000000-0000-4000-8000-000000000000" }]) {
    const { data, error } = await c.auth.signInWithSSO({ ...params, options: { redirectTo, skipBrowserRedirect: true } });
    assert.equal(data, null);
    assert.equal(error?.status, 404);
    assert.equal(error?.code, "sso_provider_not_found");
  }
});

test("a person who is not staff and not of the provider's domain: error params, nothing created", async () => {
  const { c } = makeClient(server.url, anonKey, "pkce");
  const url = await start(c, { providerId });
  const to = await post(await samlLogin({ url, username: eve.username, password: eve.password }));
  assertRefused(to, "signup_disabled");
  assert.equal(to.searchParams.get("error"), "access_denied");
  assert.ok(!isStaff(eve.email));
});

test("a provider does not vouch for staff outside its domains: refused as a stranger is, until an operator links them", async () => {
  const { c } = makeClient(server.url, anonKey, "pkce");
  const answers = [];
  let subject;
  for (const person of [bob, eve]) {
    const answer = await samlLogin({ url: await start(c, { providerId }), username: person.username, password: person.password });
    const to = await post(answer);
    assertRefused(to, "signup_disabled");
    answers.push([to.searchParams.get("error"), to.searchParams.get("error_code"), to.searchParams.get("error_description")]);
    if (person === bob) {
      subject = answer.xml.match(/Name="urn:oasis:names:tc:SAML:attribute:subject-id"[^>]*>\s*<saml:AttributeValue[^>]*>([^<]+)</)?.[1] ??
        answer.xml.match(/<saml:NameID[^>]*>([^<]+)</)?.[1];
    }
  }
  assert.deepEqual(answers[0], answers[1], "a staff address is answered otherwise than a stranger's");
  assert.ok(subject, "no subject in the IdP's answer");
  assert.match(store.cli("audit", "list", "--format", "csv"), /not vouched: the address is outside the provider's domains/);

  store.cli("staff", "link", bob.email, "--provider", providerId, "--subject", subject);
  const to = await post(await samlLogin({ url: await start(c, { providerId }), username: bob.username, password: bob.password }));
  const { data, error } = await c.auth.exchangeCodeForSession(to.searchParams.get("code"));
  assert.equal(error, null, `${to}`);
  assert.equal(data.user.email, bob.email);
});

test("a tampered SAMLResponse (the e-mail changed after the IdP signed it) is refused", async () => {
  const { c } = makeClient(server.url, anonKey, "pkce");
  const url = await start(c, { domain });
  const answer = await samlLogin({ url, username: grace.username, password: grace.password });
  const xml = decodeSAMLResponse(answer.samlResponse);
  const mallory = `mallory@${domain}`;
  assert.ok(xml.includes(grace.email));
  const tampered = Buffer.from(xml.replaceAll(grace.email, mallory)).toString("base64");
  assertRefused(await post({ ...answer, samlResponse: tampered }), "validation_failed");
  assert.ok(!isStaff(mallory));
});

test("a SAMLResponse posted twice is refused the second time", async () => {
  const { c } = makeClient(server.url, anonKey, "pkce");
  const answer = await samlLogin({ url: await start(c, { domain }), username: ada.username, password: ada.password });
  assert.ok((await post(answer)).searchParams.get("code"));
  assertRefused(await post(answer), "saml_relay_state_not_found", `${site}/admin`);
});

test("an expired assertion is refused", async () => {
  // Expired beyond the 3 minutes of clock skew the studio allows.
  const expired = await sameIdP({ assertionLifetime: -600 });
  const { c } = makeClient(server.url, anonKey, "pkce");
  const url = (await start(c, { domain })).replace(idp.url, expired.url);
  assertRefused(await post(await samlLogin({ url, username: ada.username, password: ada.password })), "validation_failed");
});

test("an unsigned response is refused", async () => {
  const unsigned = await sameIdP({ signAssertion: false, signResponse: false });
  const { c } = makeClient(server.url, anonKey, "pkce");
  const url = (await start(c, { domain })).replace(idp.url, unsigned.url);
  assertRefused(await post(await samlLogin({ url, username: ada.username, password: ada.password })), "validation_failed");
});

test("an assertion addressed to another SP (audience, recipient) is refused", async () => {
  const { c } = makeClient(server.url, anonKey, "pkce");
  const studioURL = await start(c, { domain });
  const { id, relayState } = parseAuthnRequestURL(studioURL);
  const url = buildAuthnRequestURL({ ssoUrl: idp.ssoUrl, spEntityId: "https://elsewhere.test/sp", acsUrl: "https://elsewhere.test/acs", id, relayState });
  const answer = await samlLogin({ url, username: ada.username, password: ada.password });
  assert.equal(answer.acsUrl, "https://elsewhere.test/acs");
  assertRefused(await post(answer), "validation_failed");
});

test("a sign-in started at the IdP is refused at the console", async () => {
  const answer = await samlLogin({ url: `${idp.ssoUrl}?spentityid=${encodeURIComponent(sp.spEntityId)}`, username: ada.username, password: ada.password });
  const to = await post({ samlResponse: answer.samlResponse, relayState: undefined });
  assert.equal(`${to.origin}${to.pathname}`, `${site}/admin`);
  const params = new URLSearchParams(to.hash.slice(1));
  assert.equal(params.get("error_code"), "validation_failed");
  assert.match(params.get("error_description"), /started at the identity provider/);
  assert.ok(!params.get("access_token"));
});
