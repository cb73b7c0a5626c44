// Passkeys (WebAuthn factors) through the official @supabase/supabase-js
// client against the real studio binary: mfa.enroll with factorType
// "webauthn", mfa.challenge (whose options the client turns into what
// navigator.credentials takes) and mfa.verify (which serializes the
// credential with its toJSON). Node has no navigator.credentials: a software
// authenticator here plays the browser's part, with an ES256 key and
// attestation "none". Chromium's own authenticator is web/e2e/passkeys.spec.ts.
//
// Run: npm --prefix web run test:auth (after make build); harness.mjs says
// which binary and store.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { newStore, startServe, makeClient, staffAddress, signInByCLI } from "./harness.mjs";

const site = "https://studio.test";
const rp = { rpId: "studio.test", rpOrigins: [site] };
const email = staffAddress("radia");

let store, server, anonKey;

before(async () => {
  store = newStore();
  store.cli("staff", "add", email, "--name", "Radia");
  anonKey = store.cli("keys", "print-anon").trim();
  server = await startServe(["--data", store.dataDir, "--site-url", site, "--auth-rate-limit", "off", "--auth-refresh-rate-limit", "off"]);
});

after(() => {
  server?.proc.kill("SIGTERM");
  store?.remove();
});

/** cbor encodes what a WebAuthn authenticator writes: maps, byte and text strings, small integers. */
function cbor(v) {
  const head = (major, n) =>
    n < 24 ? Buffer.from([(major << 5) | n]) : n < 256 ? Buffer.from([(major << 5) | 24, n]) : Buffer.from([(major << 5) | 25, n >> 8, n & 255]);
  if (typeof v === "number") return v >= 0 ? head(0, v) : head(1, -1 - v);
  if (typeof v === "string") return Buffer.concat([head(3, Buffer.byteLength(v)), Buffer.from(v)]);
  if (Buffer.isBuffer(v)) return Buffer.concat([head(2, v.length), v]);
  const entries = v instanceof Map ? [...v] : Object.entries(v);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, x]) => [cbor(k), cbor(x)])]);
}

const b64url = (b) => Buffer.from(b).toString("base64url");

/** authenticator is a software passkey for pages of origin: create and get take the options supabase-js made. */
function authenticator(origin = site) {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = publicKey.export({ format: "jwk" });
  const a = { id: randomBytes(32), counter: 0, origin, rpId: new URL(origin).hostname, userHandle: Buffer.alloc(0) };
  const clientData = (type, challenge) => Buffer.from(JSON.stringify({ type, challenge: b64url(challenge), origin: a.origin, crossOrigin: false }));
  const authData = (flags) => {
    a.counter += 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(a.counter);
    return Buffer.concat([createHash("sha256").update(a.rpId).digest(), Buffer.from([flags]), counter]);
  };
  const credential = (response) => ({
    toJSON: () => ({ id: b64url(a.id), rawId: b64url(a.id), type: "public-key", response, clientExtensionResults: {}, authenticatorAttachment: "platform" }),
  });
  a.create = (publicKey) => {
    a.userHandle = Buffer.from(publicKey.user.id);
    const key = cbor(new Map([[1, 2], [3, -7], [-1, 1], [-2, Buffer.from(jwk.x, "base64url")], [-3, Buffer.from(jwk.y, "base64url")]]));
    const idLength = Buffer.from([a.id.length >> 8, a.id.length & 255]);
    const data = Buffer.concat([authData(0x45), Buffer.alloc(16), idLength, a.id, key]);
    const attestation = cbor({ fmt: "none", attStmt: {}, authData: data });
    return credential({ clientDataJSON: b64url(clientData("webauthn.create", publicKey.challenge)), attestationObject: b64url(attestation), transports: ["internal"] });
  };
  a.get = (publicKey) => {
    const cd = clientData("webauthn.get", publicKey.challenge);
    const data = authData(0x05);
    const signature = sign("sha256", Buffer.concat([data, createHash("sha256").update(cd).digest()]), privateKey);
    return credential({ clientDataJSON: b64url(cd), authenticatorData: b64url(data), signature: b64url(signature), userHandle: b64url(a.userHandle) });
  };
  return a;
}

/** ceremony asks for a challenge of the factor, lets key answer it as the browser would, and sends the answer. */
async function ceremony(c, factorId, key, { wantType } = {}) {
  const challenge = await c.auth.mfa.challenge({ factorId, webauthn: rp });
  assert.equal(challenge.error, null);
  const { type, credential_options } = challenge.data.webauthn;
  if (wantType) assert.equal(type, wantType);
  const credential_response = type === "create" ? key.create(credential_options.publicKey) : key.get(credential_options.publicKey);
  const sent = { factorId, challengeId: challenge.data.id, webauthn: { type, ...rp, credential_response } };
  return { sent, verified: await c.auth.mfa.verify(sent) };
}

test("passkey: enrol, register (create), sign in again and assert (request): aal2 with amr mfa/webauthn", async () => {
  const key = authenticator();
  const { c } = makeClient(server.url, anonKey);
  await signInByCLI(c, store.cli, email);
  const events = [];
  c.auth.onAuthStateChange((event) => events.push(event));

  const enrolled = await c.auth.mfa.enroll({ factorType: "webauthn", friendlyName: "Laptop" });
  assert.equal(enrolled.error, null);
  assert.deepEqual(Object.keys(enrolled.data).sort(), ["friendly_name", "id", "type"]);
  assert.equal(enrolled.data.type, "webauthn");
  const factorId = enrolled.data.id;

  const challenge = await c.auth.mfa.challenge({ factorId, webauthn: rp });
  assert.equal(challenge.error, null);
  assert.equal(challenge.data.type, "webauthn");
  assert.ok(Math.abs(challenge.data.expires_at - (Date.now() / 1000 + 300)) < 5);
  const { type, credential_options } = challenge.data.webauthn;
  assert.equal(type, "create");
  // supabase-js turned the base64url fields into buffers, as navigator.credentials.create takes them.
  const pk = credential_options.publicKey;
  assert.ok(pk.challenge instanceof ArrayBuffer && pk.challenge.byteLength >= 16);
  assert.ok(pk.user.id instanceof ArrayBuffer && pk.user.id.byteLength === 16);
  assert.equal(pk.user.name, email);
  assert.equal(pk.user.displayName, "Radia");
  assert.equal(pk.rp.id, "studio.test");
  assert.ok(pk.pubKeyCredParams.some((p) => p.alg === -7));
  const verified = await c.auth.mfa.verify({ factorId, challengeId: challenge.data.id, webauthn: { type, ...rp, credential_response: key.create(pk) } });
  assert.equal(verified.error, null);
  assert.ok(events.includes("MFA_CHALLENGE_VERIFIED"), `events: ${events}`);
  let aal = await c.auth.mfa.getAuthenticatorAssuranceLevel();
  assert.equal(aal.data.currentLevel, "aal2");
  assert.deepEqual(aal.data.currentAuthenticationMethods.map((m) => m.method), ["mfa/webauthn", "otp"]);
  const factors = await c.auth.mfa.listFactors();
  assert.deepEqual(factors.data.webauthn.map((f) => [f.id, f.factor_type, f.status, f.friendly_name]), [[factorId, "webauthn", "verified", "Laptop"]]);

  // A new sign-in: the passkey is the next level; its challenge asks for this credential.
  const { c: d } = makeClient(server.url, anonKey);
  await signInByCLI(d, store.cli, email);
  aal = await d.auth.mfa.getAuthenticatorAssuranceLevel();
  assert.deepEqual([aal.data.currentLevel, aal.data.nextLevel], ["aal1", "aal2"]);
  const request = await d.auth.mfa.challenge({ factorId, webauthn: rp });
  assert.equal(request.data.webauthn.type, "request");
  const allowed = request.data.webauthn.credential_options.publicKey.allowCredentials;
  assert.deepEqual(allowed.map((cr) => Buffer.from(cr.id).equals(key.id)), [true]);
  const asserted = await d.auth.mfa.verify({
    factorId,
    challengeId: request.data.id,
    webauthn: { type: "request", ...rp, credential_response: key.get(request.data.webauthn.credential_options.publicKey) },
  });
  assert.equal(asserted.error, null);
  assert.equal((await d.auth.getClaims()).data.claims.aal, "aal2");
});

test("passkey: another relying party, a replayed or cloned assertion are refused with GoTrue's codes", async () => {
  const who = staffAddress("barbara");
  store.cli("staff", "add", who);
  const key = authenticator();
  const { c } = makeClient(server.url, anonKey);
  await signInByCLI(c, store.cli, who);
  const { data: factor } = await c.auth.mfa.enroll({ factorType: "webauthn", friendlyName: "Key" });
  assert.equal((await ceremony(c, factor.id, key, { wantType: "create" })).verified.error, null);

  const { c: d } = makeClient(server.url, anonKey);
  await signInByCLI(d, store.cli, who);

  const otherParty = await d.auth.mfa.challenge({ factorId: factor.id, webauthn: { rpId: "evil.test", rpOrigins: ["https://evil.test"] } });
  assert.equal(otherParty.error?.status, 400);
  assert.equal(otherParty.error?.code, "validation_failed");

  // An assertion made on another site's page.
  key.origin = "https://evil.test";
  let r = await ceremony(d, factor.id, key, { wantType: "request" });
  assert.equal(r.verified.error?.status, 422);
  assert.equal(r.verified.error?.code, "mfa_verification_failed");
  key.origin = site;

  // A copy of the key made before its last use: the counter goes back.
  const saved = key.counter;
  key.counter = 0;
  r = await ceremony(d, factor.id, key);
  assert.equal(r.verified.error?.code, "mfa_verification_failed");
  assert.match(r.verified.error?.message, /signature counter did not go up/);
  assert.match(store.cli("audit", "list", "--format", "json"), /factor_clone_detected/);
  key.counter = saved;

  // The right answer works once.
  r = await ceremony(d, factor.id, key);
  assert.equal(r.verified.error, null);
  const again = await d.auth.mfa.verify(r.sent);
  assert.equal(again.error?.status, 422);
  assert.equal(again.error?.code, "mfa_ip_address_mismatch");
});
