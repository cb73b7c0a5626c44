// The test OpenID Connect provider (auth-tests/idp/oidc-provider.mjs) does
// what the federated sign-in tests rely on: discovery, the authorization
// code flow through its login page with nonce and optional PKCE,
// client_secret_basic, ID tokens with the user's e-mail that verify
// against its JWKS, tokens minted with its key, and its command.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { startOIDCProvider, oidcLogin, exchangeCode } from "../auth-tests/idp/oidc-provider.mjs";

const redirectUri = "http://127.0.0.1:9/auth/v1/callback"; // never fetched
const client = { client_id: "studio", client_secret: randomBytes(12).toString("hex"), redirect_uris: [redirectUri] };
const ada = { sub: "ada-1", email: "ada@studio.test", email_verified: true, name: "Ada", password: "ada's pw" };
const bob = { sub: "bob-2", email: "bob@elsewhere.test", email_verified: false };

let op;
let discovery;
before(async () => {
  op = await startOIDCProvider({ clients: [client], users: [ada, bob] });
  discovery = await (await fetch(`${op.issuer}/.well-known/openid-configuration`)).json();
});
after(() => op?.close());

function authorizeURL(params) {
  const url = new URL(discovery.authorization_endpoint);
  url.search = new URLSearchParams({ client_id: client.client_id, redirect_uri: redirectUri, response_type: "code", scope: "openid email profile", ...params });
  return url.href;
}

async function verifyIdToken(idToken) {
  const { payload } = await jwtVerify(idToken, createRemoteJWKSet(new URL(discovery.jwks_uri)), {
    issuer: op.issuer,
    audience: client.client_id,
    algorithms: ["RS256"],
  });
  return payload;
}

test("discovery names the issuer, its endpoints, the code flow and client_secret_basic", async () => {
  assert.match(op.issuer, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.equal(discovery.issuer, op.issuer);
  for (const endpoint of ["authorization_endpoint", "token_endpoint", "jwks_uri", "userinfo_endpoint"]) {
    assert.ok(discovery[endpoint].startsWith(`${op.issuer}/`), endpoint);
  }
  assert.ok(discovery.response_types_supported.includes("code"));
  assert.ok(discovery.token_endpoint_auth_methods_supported.includes("client_secret_basic"));
  assert.ok(discovery.id_token_signing_alg_values_supported.includes("RS256"));
  assert.ok(discovery.code_challenge_methods_supported.includes("S256"));
  const jwks = await (await fetch(discovery.jwks_uri)).json();
  assert.deepEqual(jwks.keys.map((k) => k.kid), [op.publicJwk.kid]);
  assert.equal(jwks.keys[0].d, undefined, "the JWKS publishes no private part");
});

test("a user signs in on the login page: code with state, PKCE, an ID token with e-mail and nonce", async () => {
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const { callbackUrl } = await oidcLogin({
    authorizeUrl: authorizeURL({ state: "st-1", nonce: "n-1", code_challenge: challenge, code_challenge_method: "S256" }),
    login: ada.email,
    password: ada.password,
  });
  const callback = new URL(callbackUrl);
  assert.equal(`${callback.origin}${callback.pathname}`, redirectUri);
  assert.equal(callback.searchParams.get("state"), "st-1");
  const code = callback.searchParams.get("code");
  assert.ok(code, callbackUrl);

  const exchange = { tokenUrl: discovery.token_endpoint, clientId: client.client_id, clientSecret: client.client_secret, code, redirectUri };
  await assert.rejects(exchangeCode({ ...exchange, codeVerifier: "not-the-verifier-" + verifier }), /invalid_grant/);
  const tokens = await exchangeCode({ ...exchange, codeVerifier: verifier });
  const claims = await verifyIdToken(tokens.id_token);
  assert.equal(claims.sub, ada.sub);
  assert.equal(claims.email, ada.email);
  assert.equal(claims.email_verified, true);
  assert.equal(claims.name, ada.name);
  assert.equal(claims.nonce, "n-1");

  const userinfo = await (await fetch(discovery.userinfo_endpoint, { headers: { authorization: `Bearer ${tokens.access_token}` } })).json();
  assert.equal(userinfo.email, ada.email);
});

test("PKCE is optional, the login takes the sub too, and email_verified comes out as it is", async () => {
  const { callbackUrl } = await oidcLogin({ authorizeUrl: authorizeURL({ state: "st-2", nonce: "n-2" }), login: bob.sub, password: "anything" });
  const code = new URL(callbackUrl).searchParams.get("code");
  assert.ok(code, callbackUrl);
  const tokens = await exchangeCode({ tokenUrl: discovery.token_endpoint, clientId: client.client_id, clientSecret: client.client_secret, code, redirectUri });
  const claims = await verifyIdToken(tokens.id_token);
  assert.equal(claims.email, bob.email);
  assert.equal(claims.email_verified, false);
});

test("a wrong password or an unknown user does not sign in", async () => {
  await assert.rejects(oidcLogin({ authorizeUrl: authorizeURL({ state: "s", nonce: "n" }), login: ada.email, password: "wrong" }), /refused/);
  await assert.rejects(oidcLogin({ authorizeUrl: authorizeURL({ state: "s", nonce: "n" }), login: "eve@studio.test", password: "x" }), /refused/);
});

test("the token endpoint refuses a wrong client secret", async () => {
  const { callbackUrl } = await oidcLogin({ authorizeUrl: authorizeURL({ state: "s", nonce: "n" }), login: ada.email, password: ada.password });
  const code = new URL(callbackUrl).searchParams.get("code");
  await assert.rejects(
    exchangeCode({ tokenUrl: discovery.token_endpoint, clientId: client.client_id, clientSecret: "wrong", code, redirectUri }),
    /invalid_client/,
  );
});

test("signIdToken mints tokens that verify against the provider's JWKS, with the claims chosen", async () => {
  const nonce = createHash("sha256").update("raw nonce").digest("hex");
  const claims = await verifyIdToken(op.signIdToken({ sub: ada.sub, email: ada.email, email_verified: true, nonce }));
  assert.equal(claims.iss, op.issuer);
  assert.equal(claims.aud, client.client_id);
  assert.equal(claims.nonce, nonce);
  assert.ok(claims.exp > Date.now() / 1000);

  const now = Math.floor(Date.now() / 1000);
  await assert.rejects(verifyIdToken(op.signIdToken({ sub: ada.sub, exp: now - 60, iat: now - 120 })), /"exp"/);
  await assert.rejects(verifyIdToken(op.signIdToken({ sub: ada.sub, aud: "someone-else" })), /"aud"/);
  const noNonce = await verifyIdToken(op.signIdToken({ sub: ada.sub, nonce: undefined }));
  assert.equal("nonce" in noNonce, false);
});

test("the command serves a provider with the clients and users given", async (t) => {
  const cli = spawn(process.execPath, [
    join(import.meta.dirname, "../auth-tests/idp/oidc-provider.mjs"),
    "--client", `cli-client,cli-secret,${redirectUri}`,
    "--user", "cy@studio.test,cy-pw",
  ], { stdio: ["ignore", "pipe", "inherit"] });
  t.after(() => cli.kill());
  let json = "";
  for await (const line of createInterface({ input: cli.stdout })) {
    json += line;
    if (line === "}") break;
  }
  const { issuer } = JSON.parse(json);
  const url = new URL(`${issuer}/auth`);
  url.search = new URLSearchParams({ client_id: "cli-client", redirect_uri: redirectUri, response_type: "code", scope: "openid email", nonce: "n" });
  const { callbackUrl } = await oidcLogin({ authorizeUrl: url.href, login: "cy@studio.test", password: "cy-pw" });
  const code = new URL(callbackUrl).searchParams.get("code");
  const tokens = await exchangeCode({ tokenUrl: `${issuer}/token`, clientId: "cli-client", clientSecret: "cli-secret", code, redirectUri });
  const claims = JSON.parse(Buffer.from(tokens.id_token.split(".")[1], "base64url"));
  assert.equal(claims.email, "cy@studio.test");
  assert.equal(claims.email_verified, true);
});
