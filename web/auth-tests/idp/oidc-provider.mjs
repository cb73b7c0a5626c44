/**
 * A real OpenID Connect provider for the federated sign-in tests: the
 * certified `oidc-provider` package (npm, not our code) on 127.0.0.1, in
 * memory, with a login page of its own. `make test` installs it with the
 * web's other packages (npm ci); its own tests are idp-tests/.
 *
 *   import { startOIDCProvider, oidcLogin } from "./idp/oidc-provider.mjs";
 *   const op = await startOIDCProvider({
 *     clients: [{ client_id: "studio", client_secret: "s3cret", redirect_uris: [`${site}/auth/v1/callback`] }],
 *     users: [{ sub: "ada-1", email: "ada@studio.test", email_verified: true, password: "pw" }],
 *   });
 *   // op.issuer → `studio oauth add idp --issuer ${op.issuer} --client-id studio --client-secret s3cret`
 *   const { callbackUrl } = await oidcLogin({ authorizeUrl, login: "ada@studio.test", password: "pw" });
 *   await op.close();
 *
 * startOIDCProvider({port?, clients, users}) → Promise<{issuer, url, jwksUrl, publicJwk, privateJwk, signIdToken(claims), provider, close()}>
 *   - port: the port to listen on (default: a free one). The issuer is
 *     http://127.0.0.1:PORT; discovery is at
 *     issuer/.well-known/openid-configuration, the keys at issuer/jwks.
 *   - clients: [{client_id, client_secret, redirect_uris, ...}], any
 *     oidc-provider client metadata; by default the authorization code
 *     flow, client_secret_basic at the token endpoint, RS256 ID tokens.
 *     PKCE (S256) is used when the request has a code_challenge, and not
 *     required.
 *   - users: [{sub, email, email_verified, name?, password?}]. One signs in
 *     on the login page with its e-mail (or its sub) in the field "login"
 *     and its password in "password"; a user without a password takes any.
 *     Consent is given at once. The ID token has sub, email,
 *     email_verified (scope email) and name (scope profile), the request's
 *     nonce, aud = client_id; the userinfo endpoint answers the same.
 *   The result:
 *   - issuer, url: http://127.0.0.1:PORT (the same).
 *   - jwksUrl: its JWKS; publicJwk, privateJwk: its one signing key (RS256,
 *     with kid).
 *   - signIdToken(claims, {header}?) → string: a JWT signed with that key,
 *     as the provider signs its ID tokens, for `grant_type=id_token` tests:
 *     iss = issuer, aud = the first client's id, iat = now, exp = now + 10
 *     min, overridden by claims (a claim given as undefined is left out).
 *     Give sub, email, email_verified, nonce yourself.
 *   - provider: the oidc-provider instance (for anything else).
 *   - close(): stops it.
 *
 * oidcLogin({authorizeUrl, login, password}) → Promise<{callbackUrl}>
 *   Signs in over plain HTTP as a browser would: follows authorizeUrl (the
 *   provider's /auth URL, or one that redirects there from anywhere, such
 *   as the studio's /auth/v1/authorize) to the login page, posts login and
 *   password, and returns the URL the provider sends the browser back to
 *   (redirect_uri?code=…&state=…&iss=…) without fetching it. A refused
 *   login throws.
 *
 * exchangeCode({tokenUrl, clientId, clientSecret, code, redirectUri, codeVerifier?}) → Promise<tokens>
 *   The token request a client makes (client_secret_basic): {id_token,
 *   access_token, ...}; an error answer throws.
 *
 * In a browser (Playwright): the login page has the labelled fields
 * "E-mail" (name "login") and "Password" (name "password") and the button
 * "Sign in"; it loads nothing from elsewhere. (page.route does not catch
 * the provider's redirect back: give it a real redirect_uri.)
 *
 * As a command, for trying it by hand (runs until interrupted):
 *   node web/auth-tests/idp/oidc-provider.mjs --port 8082 \
 *     --client studio,s3cret,http://127.0.0.1:8080/auth/v1/callback \
 *     --user ada@studio.test,pw [--user …]
 *   (--client ID,SECRET,REDIRECT_URI[,REDIRECT_URI…]; --user
 *   EMAIL[,PASSWORD]: sub is the e-mail, verified.)
 */
import { createServer } from "node:http";
import { generateKeyPairSync, createPrivateKey, randomBytes, sign } from "node:crypto";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import Provider from "oidc-provider";
import MemoryAdapter from "oidc-provider/lib/adapters/memory_adapter.js";
import { HTTPSession, parseForm } from "./http-session.mjs";

/** startOIDCProvider starts an OpenID Connect provider; see the top of this file. */
export async function startOIDCProvider({ port = 0, clients, users }) {
  if (!clients?.length) throw new Error("startOIDCProvider: give at least one client");
  const server = createServer();
  await new Promise((listening, failed) => {
    server.once("error", failed);
    server.listen(port, "127.0.0.1", listening);
  });
  const issuer = `http://127.0.0.1:${server.address().port}`;

  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const kid = randomBytes(8).toString("hex");
  const privateJwk = { ...privateKey.export({ format: "jwk" }), kid, alg: "RS256", use: "sig" };
  const { kty, n, e } = privateJwk;
  const publicJwk = { kty, n, e, kid, alg: "RS256", use: "sig" };

  const provider = new Provider(issuer, providerConfiguration({ clients, users, privateJwk }));
  provider.on("server_error", (_ctx, err) => console.error(`oidc-provider: ${err.stack}`));
  const handleProvider = provider.callback();
  server.on("request", (req, res) => {
    const interaction = new URL(req.url, issuer).pathname.match(/^\/interaction\/([^/]+)$/);
    if (!interaction) return handleProvider(req, res);
    handleInteraction(provider, users, req, res).catch((err) => {
      console.error(`oidc-provider interaction: ${err.stack}`);
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(err.message));
    });
  });

  return {
    issuer,
    url: issuer,
    jwksUrl: `${issuer}/jwks`,
    publicJwk,
    privateJwk,
    provider,
    signIdToken: (claims, { header } = {}) => {
      const now = Math.floor(Date.now() / 1000);
      const payload = { iss: issuer, aud: clients[0].client_id, iat: now, exp: now + 600, ...claims };
      return signJWT(payload, { alg: "RS256", typ: "JWT", kid, ...header }, privateJwk);
    },
    close: () =>
      new Promise((closed) => {
        server.close(() => closed());
        server.closeAllConnections();
      }),
  };
}

/** StateInMemory keeps the provider's sessions, codes and tokens in this
 * process, as its default does, without its warning that this is for tests. */
class StateInMemory extends MemoryAdapter {}

/** providerConfiguration is oidc-provider's configuration for these clients and users. */
function providerConfiguration({ clients, users, privateJwk }) {
  return {
    clients: clients.map((c) => ({ token_endpoint_auth_method: "client_secret_basic", ...c })),
    jwks: { keys: [privateJwk] },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // The claims of the scopes asked for go in the ID token too (not only in
    // userinfo), as Google's and Entra's do.
    conformIdTokenClaims: false,
    pkce: { required: () => false },
    adapter: StateInMemory,
    ttl: { AccessToken: 3600, AuthorizationCode: 60, IdToken: 3600, Interaction: 3600, Grant: 3600, Session: 3600, RefreshToken: 3600 },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => {
      const user = users.find((u) => u.sub === sub);
      if (!user) return undefined;
      return { accountId: sub, claims: () => claimsOf(user) };
    },
    // First-party: every sign-in is granted the scopes it asks for, with no
    // consent page.
    loadExistingGrant: async (ctx) => {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope(ctx.oidc.requestParamScopes ? [...ctx.oidc.requestParamScopes].join(" ") : "openid");
      await grant.save();
      return grant;
    },
    renderError: (ctx, out) => {
      ctx.type = "html";
      ctx.body = page("Sign-in error", Object.entries(out).map(([k, v]) => `<p><strong>${escapeHTML(k)}</strong>: ${escapeHTML(v)}</p>`).join(""));
    },
  };
}

function claimsOf(user) {
  const { password: _, ...claims } = user;
  return claims;
}

/** handleInteraction serves the login page (GET) and checks what it posts. */
async function handleInteraction(provider, users, req, res) {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name !== "login") {
    // Consent is granted by loadExistingGrant; anything else is finished as is.
    return provider.interactionFinished(req, res, {}, { mergeWithLastSubmission: true });
  }
  if (req.method !== "POST") return sendLoginPage(res, details.uid, details.params.client_id);
  const form = new URLSearchParams(await readBody(req));
  const login = (form.get("login") ?? "").trim().toLowerCase();
  const user = users.find((u) => u.email?.toLowerCase() === login || u.sub === login);
  if (!user || (user.password !== undefined && user.password !== form.get("password"))) {
    return sendLoginPage(res, details.uid, details.params.client_id, "Wrong e-mail or password.");
  }
  return provider.interactionFinished(req, res, { login: { accountId: user.sub } }, { mergeWithLastSubmission: false });
}

function sendLoginPage(res, uid, clientId, error) {
  res.writeHead(error ? 401 : 200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  res.end(
    page(
      "Sign in",
      `<p>to ${escapeHTML(clientId)}</p>` +
        (error ? `<p role="alert">${escapeHTML(error)}</p>` : "") +
        `<form method="post" action="/interaction/${escapeHTML(uid)}">` +
        `<label>E-mail <input name="login" type="text" autocomplete="username" autofocus></label>` +
        `<label>Password <input name="password" type="password" autocomplete="current-password"></label>` +
        `<button type="submit">Sign in</button></form>`,
    ),
  );
}

/** page is a whole HTML page that loads nothing from elsewhere. */
function page(title, body) {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeHTML(title)}</title>` +
    `<style>label{display:block;margin:.5em 0}</style></head><body><h1>${escapeHTML(title)}</h1>${body}</body></html>`;
}

function escapeHTML(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

async function readBody(req) {
  let body = "";
  for await (const chunk of req.setEncoding("utf8")) {
    body += chunk;
    if (body.length > 64 * 1024) throw new Error("login form too large");
  }
  return body;
}

const base64url = (v) => Buffer.from(typeof v === "string" ? v : JSON.stringify(v)).toString("base64url");

/** signJWT signs payload as a compact RS256 JWT with the private JWK. */
function signJWT(payload, header, privateJwk) {
  const input = `${base64url(header)}.${base64url(payload)}`;
  const signature = sign("sha256", Buffer.from(input), createPrivateKey({ key: privateJwk, format: "jwk" }));
  return `${input}.${signature.toString("base64url")}`;
}

/** oidcLogin signs in at the provider over HTTP and returns where it sends the browser back; see the top of this file. */
export async function oidcLogin({ authorizeUrl, login, password = "" }) {
  const session = new HTTPSession();
  // The first hops may cross from the relying party (the studio) to the
  // provider, whose login page ends them.
  let page = await session.follow(authorizeUrl);
  const provider = new URL(page.url).origin;
  const form = parseForm(page.text, page.url, "password");
  if (!form) throw new Error(`oidcLogin: no login form at ${page.url} (${page.res.status}): ${page.text.slice(0, 500)}`);
  page = await session.follow(form.action, [provider], { method: form.method, body: { ...form.fields, login, password } });
  if (page.leftTo) return { callbackUrl: page.leftTo };
  const refused = parseForm(page.text, page.url, "password") ? "the provider refused the login or password" : page.text.slice(0, 500);
  throw new Error(`oidcLogin: not sent back to the client from ${page.url} (${page.res.status}): ${refused}`);
}

/** exchangeCode makes a client's token request; see the top of this file. */
export async function exchangeCode({ tokenUrl, clientId, clientSecret, code, redirectUri, codeVerifier }) {
  const body = new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirectUri });
  if (codeVerifier) body.set("code_verifier", codeVerifier);
  const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString("base64");
  const res = await fetch(tokenUrl, { method: "POST", headers: { authorization: `Basic ${basic}` }, body });
  const tokens = await res.json();
  if (!res.ok) throw new Error(`exchangeCode: ${res.status} ${JSON.stringify(tokens)}`);
  return tokens;
}

async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: "0" },
      client: { type: "string", multiple: true, default: [] },
      user: { type: "string", multiple: true, default: [] },
    },
  });
  const op = await startOIDCProvider({
    port: Number(values.port),
    clients: values.client.map((c) => {
      const [client_id, client_secret, ...redirect_uris] = c.split(",");
      return { client_id, client_secret, redirect_uris };
    }),
    users: values.user.map((u) => {
      const [email, password] = u.split(",");
      return { sub: email, email, email_verified: true, password };
    }),
  });
  console.log(JSON.stringify({ issuer: op.issuer, discovery: `${op.issuer}/.well-known/openid-configuration` }, null, 2));
  const stop = () => op.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(err.message);
    process.exit(1);
  });
}
