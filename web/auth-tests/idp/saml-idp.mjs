/**
 * A real SAML 2.0 identity provider for the federated sign-in tests:
 * Debian's SimpleSAMLphp 1.19 (not our code), served by PHP's built-in
 * server on 127.0.0.1, configured in a temporary directory that close()
 * removes. Nothing is written to /etc, /var or the work tree.
 * `make test` installs it when missing (deps-test runs
 * scripts/ensure-simplesamlphp); the IdP's own tests are idp-tests/.
 *
 *   import { startSAMLIdP, samlLogin } from "./idp/saml-idp.mjs";
 *   const idp = await startSAMLIdP({
 *     spEntityId: `${site}/auth/v1/sso/saml/metadata`,
 *     spAcsUrl: `${site}/auth/v1/sso/saml/acs`,
 *     users: [{ username: "ada", password: "pw", email: "ada@studio.test" }],
 *   });
 *   // studio sso add --metadata-url ${idp.metadataUrl} --domain studio.test
 *   // POST /auth/v1/sso → {url}, the AuthnRequest on idp.ssoUrl
 *   const { samlResponse, relayState, acsUrl } = await samlLogin({ url, username: "ada", password: "pw" });
 *   // POST acsUrl, form-encoded {SAMLResponse: samlResponse, RelayState: relayState}
 *   await idp.close();
 *
 * startSAMLIdP(options) → Promise<{url, entityId, metadataUrl, ssoUrl, certPem, keyPem, dir, log(), close()}>
 *   options:
 *   - port: the port to listen on (default: a free one).
 *   - spEntityId, spAcsUrl: the service provider it answers, with the
 *     HTTP-POST binding to spAcsUrl (a string, or several: a request may
 *     name any of them, the first is the default). Or spMetadataXml: the
 *     SP's metadata (an EntityDescriptor), which then gives both.
 *   - otherSps: [{entityId, acsUrl}], more SPs it answers.
 *   - users: [{username, password, email, attributes?}]; username must not
 *     contain ':'. Each signs in on the IdP's own login page; the assertion
 *     carries the attributes email=[email] and uid=[username] (plus
 *     attributes: {name: [values]}), in the basic name format.
 *   - nameIdFormat: "emailAddress" (default: the NameID is the e-mail, in
 *     format urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress) or
 *     "transient" (a random NameID: the e-mail is only in the attribute),
 *     whatever the request's NameIDPolicy asks.
 *   - signAssertion (default true), signResponse (default true): which of
 *     the Assertion and the Response carry a ds:Signature (RSA-SHA256,
 *     exclusive c14n, the certificate in KeyInfo). Both false: unsigned.
 *   - assertionLifetime: seconds the assertion is valid for (default 300;
 *     a negative number gives an already expired, properly signed one).
 *   - entityId: the IdP's entity id (default its metadata URL); keyPem and
 *     certPem: its signing key and self-signed certificate (default: new
 *     ones made with openssl). Give another instance the same three to
 *     have "the same IdP" answer differently.
 *   The result:
 *   - url: http://127.0.0.1:PORT, its base.
 *   - metadataUrl: url/saml2/idp/metadata.php, the IdP's metadata (XML).
 *   - entityId: the IdP's entity id (the Issuer of its responses).
 *   - ssoUrl: url/saml2/idp/SSOService.php, its HTTP-Redirect
 *     SingleSignOnService (IdP-initiated: ssoUrl?spentityid=SP_ENTITY_ID).
 *   - certPem, keyPem: its signing certificate and key (PEM).
 *   - dir: its temporary directory; log(): what PHP's server printed (the
 *     requests, SimpleSAMLphp's warnings and errors), to explain a failure.
 *   - close(): stops the server and removes the directory.
 *
 * samlLogin({url, username, password}) → Promise<{samlResponse, relayState, acsUrl, xml}>
 *   Signs in over plain HTTP, as a browser would up to the final post: url
 *   is an HTTP-Redirect AuthnRequest URL (what the SP sends the browser
 *   to; redirects from anywhere are followed up to the login form), or an
 *   IdP-initiated ssoUrl?spentityid=…. It posts username and password on
 *   the IdP's login form and returns what the IdP's auto-posting page
 *   would post: samlResponse (base64, as posted), relayState (or
 *   undefined), acsUrl (the form's action) and xml (samlResponse
 *   decoded). Post them yourself, as they are or changed: the IdP never
 *   contacts the SP. A refused login throws.
 *
 * buildAuthnRequestURL({ssoUrl, spEntityId, acsUrl, relayState?, id?, nameIdFormat?}) → string
 *   An AuthnRequest from a fake SP: deflated and base64-encoded on ssoUrl
 *   (HTTP-Redirect binding, unsigned); id defaults to "_" + random hex.
 * parseAuthnRequestURL(url) → {id, issuer, acsUrl, relayState, xml}
 *   Reads an SP's HTTP-Redirect AuthnRequest URL.
 * decodeSAMLResponse(samlResponse) → string: the XML of a posted SAMLResponse.
 *
 * Refusal tests (each posts to the studio's ACS what the IdP returned):
 * - tampered: change decodeSAMLResponse(r.samlResponse) (say, the e-mail)
 *   and post Buffer.from(xml).toString("base64");
 * - replayed: post the same samlResponse twice;
 * - unsigned: an IdP with signAssertion: false, signResponse: false;
 * - expired: a second instance of the same IdP (entityId, keyPem, certPem
 *   of the first) with assertionLifetime: -60, logged in through the
 *   studio's URL with the first's origin replaced by the second's
 *   (url.replace(idp.url, other.url));
 * - wrongly addressed: an IdP with otherSps: [{entityId: OTHER, acsUrl:
 *   OTHER_ACS}] (or spAcsUrl: [acs, anotherAcs]); copy the id of the
 *   studio's request (parseAuthnRequestURL(url).id) into
 *   buildAuthnRequestURL({ssoUrl, spEntityId: OTHER, acsUrl: OTHER_ACS, id})
 *   and samlLogin with it: the response answers the studio's request but
 *   its Audience and Recipient are the other SP's (or, with anotherAcs,
 *   only its Recipient and Destination differ).
 * SimpleSAMLphp answers a request naming an ACS it does not know for the
 * SP with its default ACS.
 *
 * In a browser (Playwright), the SP's redirect leads to the IdP's login
 * page: fill `#username` and `#password`, press the button "Login"; the
 * IdP's next page posts the SAMLResponse to the ACS by itself. It loads
 * nothing from outside 127.0.0.1.
 *
 * As a command, for trying it by hand (runs until interrupted):
 *   node web/auth-tests/idp/saml-idp.mjs --port 8081 \
 *     --sp-entity-id http://127.0.0.1:8080/auth/v1/sso/saml/metadata \
 *     --sp-acs-url http://127.0.0.1:8080/auth/v1/sso/saml/acs \
 *     --user ada,pw,ada@studio.test [--user …] [--sp-metadata-file F]
 *     [--name-id-format transient] [--no-sign-response] [--no-sign-assertion]
 */
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { HTTPSession, parseForm } from "./http-session.mjs";

/** Where Debian's simplesamlphp package puts the application. */
const simpleSAMLphp = "/usr/share/simplesamlphp";

const nameIdFormats = {
  emailAddress: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
  transient: "urn:oasis:names:tc:SAML:2.0:nameid-format:transient",
};

/** startSAMLIdP starts SimpleSAMLphp as an IdP for the SPs given; see the top of this file. */
export async function startSAMLIdP(options) {
  const { users = [], signAssertion = true, signResponse = true, assertionLifetime = 300 } = options;
  const nameIdFormat = nameIdFormats[options.nameIdFormat ?? "emailAddress"];
  if (!nameIdFormat) throw new Error(`startSAMLIdP: unknown nameIdFormat ${options.nameIdFormat}`);
  if (!options.spMetadataXml && !(options.spEntityId && options.spAcsUrl)) {
    throw new Error("startSAMLIdP: give spEntityId and spAcsUrl, or spMetadataXml");
  }
  for (const u of users) {
    if (!u.username || u.username.includes(":") || u.password == null || !u.email) {
      throw new Error(`startSAMLIdP: a user needs a username without ':', a password and an email: ${JSON.stringify(u)}`);
    }
  }
  if (!existsSync(join(simpleSAMLphp, "www/_include.php"))) {
    throw new Error(`startSAMLIdP: SimpleSAMLphp is not installed in ${simpleSAMLphp} (run scripts/ensure-simplesamlphp)`);
  }

  const dir = mkdtempSync(join(tmpdir(), "studio-saml-idp-"));
  try {
    for (const sub of ["config", "metadata", "cert", "tmp", "data", "log", "sessions"]) mkdirSync(join(dir, sub));
    const { keyPem, certPem } = options.keyPem && options.certPem ? options : makeKeyAndCert(dir);
    writeFileSync(join(dir, "cert/idp.key"), keyPem, { mode: 0o600 });
    writeFileSync(join(dir, "cert/idp.crt"), certPem);
    if (options.spMetadataXml) writeFileSync(join(dir, "metadata/sp.xml"), options.spMetadataXml);

    for (let attempt = 0; ; attempt++) {
      const port = options.port ?? (await freePort());
      const url = `http://127.0.0.1:${port}`;
      const entityId = options.entityId ?? `${url}/saml2/idp/metadata.php`;
      writeConfig(dir, {
        dir,
        baseURL: url,
        entityId,
        secret: randomBytes(16).toString("hex"),
        users,
        nameIdFormat,
        signAssertion,
        signResponse,
        assertionLifetime,
        spMetadataFile: options.spMetadataXml ? join(dir, "metadata/sp.xml") : undefined,
        sps: serviceProviders(options),
      });
      const server = await serve(dir, port);
      if (!server) {
        if (options.port || attempt >= 10) throw new Error(`startSAMLIdP: php could not listen on 127.0.0.1:${port}`);
        continue; // the free port was taken meanwhile
      }
      // A test process that ends without close() (or with --test-force-exit)
      // leaves no PHP server or directory behind.
      const cleanUp = () => {
        server.kill();
        rmSync(dir, { recursive: true, force: true });
      };
      process.once("exit", cleanUp);
      return {
        url,
        entityId,
        metadataUrl: `${url}/saml2/idp/metadata.php`,
        ssoUrl: `${url}/saml2/idp/SSOService.php`,
        certPem,
        keyPem,
        dir,
        log: server.log,
        close: async () => {
          process.off("exit", cleanUp);
          await server.stop();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    }
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** serviceProviders lists the SPs given by entity id and ACS URLs. */
function serviceProviders({ spEntityId, spAcsUrl, otherSps = [] }) {
  const sps = spEntityId ? [{ entityId: spEntityId, acsUrl: spAcsUrl }, ...otherSps] : otherSps;
  return sps.map(({ entityId, acsUrl }) => {
    const acsUrls = [acsUrl].flat();
    if (!entityId || !acsUrls.length || !acsUrls.every(Boolean)) throw new Error(`startSAMLIdP: an SP needs an entity id and an ACS URL: ${entityId} ${acsUrl}`);
    return { entityId, acsUrls };
  });
}

/** makeKeyAndCert makes the IdP's RSA key and a self-signed certificate for it. */
function makeKeyAndCert(dir) {
  const keyFile = join(dir, "cert/new.key");
  const certFile = join(dir, "cert/new.crt");
  execFileSync("openssl", [
    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-sha256", "-days", "7",
    "-subj", "/CN=studio test SAML IdP", "-keyout", keyFile, "-out", certFile,
  ], { stdio: ["ignore", "ignore", "pipe"] });
  return { keyPem: readFileSync(keyFile, "utf8"), certPem: readFileSync(certFile, "utf8") };
}

/** freePort asks the system for a port free on 127.0.0.1 just now. */
function freePort() {
  return new Promise((resolvePort, reject) => {
    const s = createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolvePort(port));
    });
  });
}

/** serve runs PHP's built-in server on SimpleSAMLphp's www/ with the
 * configuration in dir. It resolves to {stop, kill, log} once the server
 * listens, or to undefined when it could not listen on port. */
function serve(dir, port) {
  const proc = spawn("php", [
    "-d", `session.save_path=${join(dir, "sessions")}`,
    "-d", "display_errors=stderr",
    "-S", `127.0.0.1:${port}`,
    "-t", join(simpleSAMLphp, "www"),
  ], {
    cwd: dir,
    env: { ...process.env, SIMPLESAMLPHP_CONFIG_DIR: join(dir, "config") },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let output = "";
  const exited = new Promise((r) => proc.on("exit", r));
  return new Promise((resolveServe, reject) => {
    proc.on("error", reject);
    proc.stderr.setEncoding("utf8");
    proc.stderr.on("data", (chunk) => {
      output = (output + chunk).slice(-64 * 1024);
      if (/Development Server \(.*\) started/.test(output)) {
        resolveServe({
          log: () => output,
          kill: () => proc.kill(),
          stop: async () => {
            if (proc.exitCode === null) proc.kill();
            await exited;
          },
        });
      }
    });
    proc.on("exit", () => resolveServe(undefined));
  });
}

/** writeConfig writes SimpleSAMLphp's configuration: settings.json, which
 * the PHP files below read, so that nothing needs quoting as PHP. */
function writeConfig(dir, settings) {
  writeFileSync(join(dir, "config/settings.json"), JSON.stringify(settings));
  writeFileSync(join(dir, "config/config.php"), configPHP);
  writeFileSync(join(dir, "config/authsources.php"), authsourcesPHP);
  writeFileSync(join(dir, "metadata/saml20-idp-hosted.php"), idpHostedPHP);
  writeFileSync(join(dir, "metadata/saml20-sp-remote.php"), spRemotePHP);
}

const readSettings = `$s = json_decode(file_get_contents(getenv('SIMPLESAMLPHP_CONFIG_DIR') . '/settings.json'), true);`;

const configPHP = `<?php
${readSettings}
$config = [
    'baseurlpath' => $s['baseURL'] . '/',
    'certdir' => $s['dir'] . '/cert/',
    'loggingdir' => $s['dir'] . '/log/',
    'datadir' => $s['dir'] . '/data/',
    'tempdir' => $s['dir'] . '/tmp',
    'metadatadir' => $s['dir'] . '/metadata/',
    'metadata.sources' => [['type' => 'flatfile', 'directory' => $s['dir'] . '/metadata']],
    'technicalcontact_name' => 'studio tests',
    'technicalcontact_email' => 'idp@studio.test',
    'timezone' => 'UTC',
    'secretsalt' => $s['secret'],
    'auth.adminpassword' => $s['secret'],
    'admin.protectindexpage' => true,
    'admin.protectmetadata' => false,
    'admin.checkforupdates' => false,
    'enable.saml20-idp' => true,
    'enable.shib13-idp' => false,
    'enable.adfs-idp' => false,
    'module.enable' => ['exampleauth' => true, 'core' => true, 'saml' => true],
    'debug' => ['saml' => false, 'backtraces' => true, 'validatexml' => false],
    'showerrors' => true,
    'errorreporting' => false,
    'logging.level' => SimpleSAML\\Logger::WARNING,
    'logging.handler' => 'errorlog',
    'logging.format' => '%level [%trackid] %msg',
    'statistics.out' => [],
    'store.type' => 'phpsession',
    'session.phpsession.savepath' => $s['dir'] . '/sessions',
    'session.cookie.secure' => false,
    'session.cookie.samesite' => null,
    'language.cookie.secure' => false,
    'language.cookie.samesite' => null,
    'production' => true,
];
`;

const authsourcesPHP = `<?php
${readSettings}
$users = ['exampleauth:UserPass'];
foreach ($s['users'] as $u) {
    $users[$u['username'] . ':' . $u['password']] = array_merge(
        ['email' => [$u['email']], 'uid' => [$u['username']]],
        $u['attributes'] ?? []
    );
}
$config = ['admin' => ['core:AdminPassword'], 'users' => $users];
`;

const idpHostedPHP = `<?php
${readSettings}
$nameId = $s['nameIdFormat'] === 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient'
    ? ['class' => 'saml:TransientNameID']
    : ['class' => 'saml:AttributeNameID', 'attribute' => 'email', 'Format' => $s['nameIdFormat']];
$metadata[$s['entityId']] = [
    'host' => '__DEFAULT__',
    'privatekey' => $s['dir'] . '/cert/idp.key',
    'certificate' => $s['dir'] . '/cert/idp.crt',
    'auth' => 'users',
    'signature.algorithm' => 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    'saml20.sign.assertion' => $s['signAssertion'],
    'saml20.sign.response' => $s['signResponse'],
    'assertion.lifetime' => $s['assertionLifetime'],
    'NameIDFormat' => $s['nameIdFormat'],
    'attributes.NameFormat' => 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic',
    'authproc' => [100 => $nameId],
];
`;

// The SP's own settings (signing, lifetime, NameID format) are the IdP's:
// they override whatever its metadata says.
const spRemotePHP = `<?php
${readSettings}
$ours = [
    'NameIDFormat' => $s['nameIdFormat'],
    'saml20.sign.assertion' => $s['signAssertion'],
    'saml20.sign.response' => $s['signResponse'],
    'assertion.lifetime' => $s['assertionLifetime'],
    'attributes.NameFormat' => 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic',
];
if (isset($s['spMetadataFile'])) {
    $xml = file_get_contents($s['spMetadataFile']);
    foreach (\\SimpleSAML\\Metadata\\SAMLParser::parseDescriptorsString($xml) as $entity) {
        $sp = $entity->getMetadata20SP();
        if ($sp !== null) {
            $metadata[$sp['entityid']] = array_merge($sp, $ours);
        }
    }
}
foreach ($s['sps'] as $sp) {
    $acs = [];
    foreach ($sp['acsUrls'] as $i => $url) {
        $acs[] = ['Binding' => 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST', 'Location' => $url, 'index' => $i];
    }
    $metadata[$sp['entityId']] = array_merge(['AssertionConsumerService' => $acs], $ours);
}
`;

/** buildAuthnRequestURL makes a fake SP's HTTP-Redirect AuthnRequest URL; see the top of this file. */
export function buildAuthnRequestURL({ ssoUrl, spEntityId, acsUrl, relayState, id = `_${randomBytes(16).toString("hex")}`, nameIdFormat = "emailAddress" }) {
  const format = nameIdFormats[nameIdFormat] ?? nameIdFormat;
  const xml =
    `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"` +
    ` ID="${xmlEscape(id)}" Version="2.0" IssueInstant="${new Date().toISOString().replace(/\.\d+Z$/, "Z")}"` +
    ` Destination="${xmlEscape(ssoUrl)}" AssertionConsumerServiceURL="${xmlEscape(acsUrl)}"` +
    ` ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST">` +
    `<saml:Issuer>${xmlEscape(spEntityId)}</saml:Issuer>` +
    `<samlp:NameIDPolicy Format="${xmlEscape(format)}" AllowCreate="true"/>` +
    `</samlp:AuthnRequest>`;
  const url = new URL(ssoUrl);
  url.searchParams.set("SAMLRequest", deflateRawSync(xml).toString("base64"));
  if (relayState !== undefined) url.searchParams.set("RelayState", relayState);
  return url.href;
}

function xmlEscape(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]);
}

/** parseAuthnRequestURL reads an HTTP-Redirect AuthnRequest URL (the SP's); see the top of this file. */
export function parseAuthnRequestURL(url) {
  const { searchParams } = new URL(url);
  const xml = inflateRawSync(Buffer.from(searchParams.get("SAMLRequest") ?? "", "base64")).toString("utf8");
  const open = xml.match(/<(?:\w+:)?AuthnRequest\b[^>]*>/)?.[0] ?? "";
  return {
    id: open.match(/\sID="([^"]*)"/)?.[1],
    acsUrl: open.match(/\sAssertionConsumerServiceURL="([^"]*)"/)?.[1],
    issuer: xml.match(/<(?:\w+:)?Issuer\b[^>]*>([^<]*)</)?.[1],
    relayState: searchParams.get("RelayState") ?? undefined,
    xml,
  };
}

/** decodeSAMLResponse returns the XML of a posted (base64) SAMLResponse. */
export function decodeSAMLResponse(samlResponse) {
  return Buffer.from(samlResponse, "base64").toString("utf8");
}

/** samlLogin signs in at the IdP over HTTP and returns what it would post to the ACS; see the top of this file. */
export async function samlLogin({ url, username, password }) {
  const session = new HTTPSession();
  let page = await session.follow(url);
  const idp = new URL(page.url).origin;
  const login = parseForm(page.text, page.url, "password");
  if (!login) throw new Error(`samlLogin: no login form at ${page.url} (${page.res.status}): ${textOf(page.text)}`);
  page = await session.follow(login.action, [idp], { method: login.method, body: { ...login.fields, username, password } });
  if (page.leftTo) throw new Error(`samlLogin: the IdP redirected to ${page.leftTo} instead of posting a response`);
  const post = parseForm(page.text, page.url, "SAMLResponse");
  if (!post) {
    const refused = parseForm(page.text, page.url, "password") ? "the IdP refused the username or password" : textOf(page.text);
    throw new Error(`samlLogin: no SAMLResponse at ${page.url} (${page.res.status}): ${refused}`);
  }
  return {
    samlResponse: post.fields.SAMLResponse,
    relayState: post.fields.RelayState,
    acsUrl: post.action,
    xml: decodeSAMLResponse(post.fields.SAMLResponse),
  };
}

/** textOf is the visible text of an error page, shortened for a message. */
function textOf(html) {
  return html.replace(/<(script|style)[\s\S]*?<\/\1>/gi, "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim().slice(0, 500);
}

async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: "string" },
      "sp-entity-id": { type: "string" },
      "sp-acs-url": { type: "string" },
      "sp-metadata-file": { type: "string" },
      user: { type: "string", multiple: true, default: [] },
      "name-id-format": { type: "string" },
      "no-sign-assertion": { type: "boolean" },
      "no-sign-response": { type: "boolean" },
    },
  });
  const idp = await startSAMLIdP({
    port: values.port ? Number(values.port) : undefined,
    spEntityId: values["sp-entity-id"],
    spAcsUrl: values["sp-acs-url"],
    spMetadataXml: values["sp-metadata-file"] && readFileSync(values["sp-metadata-file"], "utf8"),
    users: values.user.map((u) => {
      const [username, password, email] = u.split(",");
      return { username, password, email };
    }),
    nameIdFormat: values["name-id-format"],
    signAssertion: !values["no-sign-assertion"],
    signResponse: !values["no-sign-response"],
  });
  console.log(JSON.stringify({ entityId: idp.entityId, metadataUrl: idp.metadataUrl, ssoUrl: idp.ssoUrl }, null, 2));
  const stop = () => idp.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(err.message);
    process.exit(1);
  });
}
