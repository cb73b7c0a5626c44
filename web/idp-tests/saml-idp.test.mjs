// The test SAML IdP (auth-tests/idp/saml-idp.mjs, SimpleSAMLphp) does what
// the federated sign-in tests rely on: metadata with its certificate, an
// SP-initiated login through its login page that yields a signed
// SAMLResponse for the SP's ACS with the user's e-mail, and the options
// that make a response differ (what is signed, the NameID, the lifetime,
// the SP given by its metadata).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { verify, X509Certificate } from "node:crypto";
import { startSAMLIdP, samlLogin, buildAuthnRequestURL, parseAuthnRequestURL } from "../auth-tests/idp/saml-idp.mjs";

const site = "http://127.0.0.1:9"; // the SP: never contacted
const sp = { spEntityId: `${site}/auth/v1/sso/saml/metadata`, spAcsUrl: `${site}/auth/v1/sso/saml/acs` };
const ada = { username: "ada", password: "ada's pw", email: "ada@studio.test" };

let idp;
before(async () => {
  idp = await startSAMLIdP({ ...sp, users: [ada] });
});
after(() => idp?.close());

/** login makes an SP-initiated request as the SP and signs ada in. */
async function login(at = idp, { relayState = "relay-1", acsUrl = sp.spAcsUrl, spEntityId = sp.spEntityId, id = `_req${Date.now()}` } = {}) {
  const url = buildAuthnRequestURL({ ssoUrl: at.ssoUrl, spEntityId, acsUrl, relayState, id });
  return { id, ...(await samlLogin({ url, username: ada.username, password: ada.password })) };
}

/** element returns the first element named name (with its prefix) in xml. */
function element(xml, name) {
  return xml.match(new RegExp(`<${name}\\b[^>]*?(/>|>[\\s\\S]*?</${name}>)`))?.[0];
}

/** signedBy lists which of Response and Assertion carry a signature whose
 * SignedInfo verifies with the certificate (a check of the harness, not
 * an XML-DSig validation: that is the SP's library's job). */
function signedParts(xml, certPem) {
  const key = new X509Certificate(certPem).publicKey;
  const signed = [];
  for (const part of ["samlp:Response", "saml:Assertion"]) {
    const open = xml.match(new RegExp(`<${part}\\b[^>]*\\bID="([^"]+)"`));
    const sig = [...xml.matchAll(/<ds:Signature xmlns:ds="([^"]+)">\s*(<ds:SignedInfo>[\s\S]*?<\/ds:SignedInfo>)\s*<ds:SignatureValue>([^<]+)</g)]
      .find((m) => m[2].includes(`URI="#${open[1]}"`));
    if (!sig) continue;
    // Exclusive canonical form of SignedInfo: its namespace declared on
    // it, empty elements written out whole.
    const signedInfo = sig[2]
      .replace("<ds:SignedInfo>", `<ds:SignedInfo xmlns:ds="${sig[1]}">`)
      .replace(/<(ds:\w+)([^>]*?)\/>/g, "<$1$2></$1>");
    assert.ok(verify("sha256", Buffer.from(signedInfo), key, Buffer.from(sig[3], "base64")), `${part}'s signature verifies`);
    signed.push(part);
  }
  return signed;
}

test("the metadata names the IdP, its certificate and its HTTP-Redirect SSO service", async () => {
  const res = await fetch(idp.metadataUrl);
  assert.equal(res.status, 200);
  const xml = await res.text();
  assert.match(xml, /^<\?xml/);
  assert.equal(xml.match(/<md:EntityDescriptor\b[^>]*entityID="([^"]+)"/)?.[1], idp.entityId);
  assert.equal(idp.entityId, idp.metadataUrl);
  const certBody = idp.certPem.replace(/-----[A-Z ]+-----|\s/g, "");
  assert.equal(xml.match(/<ds:X509Certificate>([^<]+)</)?.[1], certBody);
  assert.match(xml, new RegExp(`<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${idp.ssoUrl}"`));
});

test("an SP-initiated login posts a signed response with the e-mail to the ACS", async () => {
  const r = await login();
  assert.equal(r.acsUrl, sp.spAcsUrl);
  assert.equal(r.relayState, "relay-1");
  const { xml } = r;
  assert.match(element(xml, "samlp:Response"), new RegExp(`Destination="${sp.spAcsUrl}"[^>]*InResponseTo="${r.id}"`));
  assert.match(xml, /<samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"\/>/);
  assert.equal(element(xml, "saml:Issuer").replace(/<[^>]+>/g, ""), idp.entityId);
  assert.match(element(xml, "saml:NameID"), /Format="urn:oasis:names:tc:SAML:1\.1:nameid-format:emailAddress">ada@studio\.test</);
  assert.match(element(xml, "saml:Attribute"), /Name="email"[\s\S]*>ada@studio\.test</);
  assert.equal(element(xml, "saml:Audience").replace(/<[^>]+>/g, ""), sp.spEntityId);
  assert.match(element(xml, "saml:SubjectConfirmationData"), new RegExp(`Recipient="${sp.spAcsUrl}" InResponseTo="${r.id}"`));
  const notOnOrAfter = Date.parse(element(xml, "saml:Conditions").match(/NotOnOrAfter="([^"]+)"/)[1]);
  assert.ok(notOnOrAfter > Date.now(), "the assertion is valid now");
  assert.deepEqual(signedParts(xml, idp.certPem), ["samlp:Response", "saml:Assertion"]);
});

test("a wrong password gets no response", async () => {
  const url = buildAuthnRequestURL({ ssoUrl: idp.ssoUrl, ...sp, acsUrl: sp.spAcsUrl });
  await assert.rejects(samlLogin({ url, username: ada.username, password: "wrong" }), /refused/);
});

test("an IdP-initiated login has no InResponseTo", async () => {
  const r = await samlLogin({ url: `${idp.ssoUrl}?spentityid=${encodeURIComponent(sp.spEntityId)}`, username: ada.username, password: ada.password });
  assert.equal(r.acsUrl, sp.spAcsUrl);
  assert.doesNotMatch(r.xml, /InResponseTo=/);
});

test("signAssertion and signResponse choose what is signed", async () => {
  for (const [options, parts] of [
    [{ signAssertion: true, signResponse: false }, ["saml:Assertion"]],
    [{ signAssertion: false, signResponse: true }, ["samlp:Response"]],
    [{ signAssertion: false, signResponse: false }, []],
  ]) {
    const other = await startSAMLIdP({ ...sp, users: [ada], ...options });
    try {
      const { xml } = await login(other);
      assert.deepEqual(signedParts(xml, other.certPem), parts, JSON.stringify(options));
      if (!parts.length) assert.doesNotMatch(xml, /<ds:Signature/);
    } finally {
      await other.close();
    }
  }
});

test("the same IdP (key, certificate, entity id) can answer an SP given by its metadata, with a transient NameID and an expired assertion", async () => {
  const acs = `${site}/other/acs`;
  const spMetadataXml = `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${site}/other/metadata">
  <md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:transient</md:NameIDFormat>
    <md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${acs}" index="1"/>
  </md:SPSSODescriptor>
</md:EntityDescriptor>`;
  const same = await startSAMLIdP({
    spMetadataXml, users: [ada], nameIdFormat: "transient", assertionLifetime: -60,
    entityId: idp.entityId, keyPem: idp.keyPem, certPem: idp.certPem,
  });
  try {
    const { xml, acsUrl } = await login(same, { spEntityId: `${site}/other/metadata`, acsUrl: acs, nameIdFormat: "transient" });
    assert.equal(acsUrl, acs);
    assert.equal(element(xml, "saml:Issuer").replace(/<[^>]+>/g, ""), idp.entityId);
    assert.equal(element(xml, "saml:Audience").replace(/<[^>]+>/g, ""), `${site}/other/metadata`);
    assert.match(element(xml, "saml:NameID"), /Format="urn:oasis:names:tc:SAML:2\.0:nameid-format:transient">_[0-9a-f]+</);
    assert.match(element(xml, "saml:Attribute"), /Name="email"[\s\S]*>ada@studio\.test</);
    const notOnOrAfter = Date.parse(element(xml, "saml:Conditions").match(/NotOnOrAfter="([^"]+)"/)[1]);
    assert.ok(notOnOrAfter < Date.now(), "the assertion has expired");
    assert.deepEqual(signedParts(xml, idp.certPem), ["samlp:Response", "saml:Assertion"]);
  } finally {
    await same.close();
  }
});

test("a request that copies the SP's ID gets a response addressed to another SP or another ACS", async () => {
  const otherSp = { entityId: `${site}/other/metadata`, acsUrl: `${site}/other/acs` };
  const secondAcs = `${site}/second/acs`;
  const wide = await startSAMLIdP({ ...sp, spAcsUrl: [sp.spAcsUrl, secondAcs], otherSps: [otherSp], users: [ada] });
  try {
    const request = parseAuthnRequestURL(buildAuthnRequestURL({ ssoUrl: wide.ssoUrl, ...sp, acsUrl: sp.spAcsUrl, relayState: "r" }));
    assert.equal(request.issuer, sp.spEntityId);
    assert.equal(request.acsUrl, sp.spAcsUrl);
    assert.equal(request.relayState, "r");

    const toOther = await login(wide, { id: request.id, spEntityId: otherSp.entityId, acsUrl: otherSp.acsUrl });
    assert.equal(toOther.acsUrl, otherSp.acsUrl);
    assert.equal(element(toOther.xml, "saml:Audience").replace(/<[^>]+>/g, ""), otherSp.entityId);
    assert.match(element(toOther.xml, "saml:SubjectConfirmationData"), new RegExp(`Recipient="${otherSp.acsUrl}" InResponseTo="${request.id}"`));

    const toSecond = await login(wide, { id: request.id, acsUrl: secondAcs });
    assert.equal(toSecond.acsUrl, secondAcs);
    assert.equal(element(toSecond.xml, "saml:Audience").replace(/<[^>]+>/g, ""), sp.spEntityId);
    assert.match(element(toSecond.xml, "saml:SubjectConfirmationData"), new RegExp(`Recipient="${secondAcs}" InResponseTo="${request.id}"`));

    // An ACS the IdP does not know for the SP: SimpleSAMLphp answers to its first one.
    const toUnknown = await login(wide, { acsUrl: `${site}/unknown/acs` });
    assert.equal(toUnknown.acsUrl, sp.spAcsUrl);
  } finally {
    await wide.close();
  }
});
