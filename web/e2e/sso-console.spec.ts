/**
 * Staff sign in to /admin through SAML single sign-on in a real browser:
 * the console's "Single sign-on", the work address (its domain picks the
 * identity provider), SimpleSAMLphp's own login page (Debian's package, not
 * our code: auth-tests/idp/saml-idp.mjs), its auto-posting page to the ACS,
 * and back into the console. Someone who is not staff comes back to the
 * sign-in screen with the reason, and is not added; an address whose domain
 * has no single sign-on is told so. With an OpenID Connect provider too, the
 * sign-in screen's buttons are reached by Tab in order, and the sign-in
 * screen, the SSO step, a refusal and the account screen with the linked
 * identity have no axe violations.
 */
import { test, expect, type Page } from "@playwright/test";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { accountCopy, inboxCopy, signInCopy } from "../app/content/console";
import { env } from "../auth-tests/studio-env.mjs";
import { startOIDCProvider, type OIDCProvider } from "../auth-tests/idp/oidc-provider.mjs";
import { startSAMLIdP, type SAMLIdP } from "../auth-tests/idp/saml-idp.mjs";
import { startStudio, type Studio } from "./staff-console";
import { expectNoAxeViolations } from "./axe";

// One studio and one IdP for the file's tests, in order.
test.describe.configure({ mode: "serial" });

const suffix = randomBytes(3).toString("hex");
// Unique per run: on PostgreSQL the studios of a run share one store, and an SSO domain belongs to one IdP.
const domain = `sso-${suffix}.test`;
const ada = { username: "ada", password: "ada's password", email: `ada@${domain}` };
const eve = { username: "eve", password: "eve's password", email: `eve-${suffix}@elsewhere.test` };

// An OpenID Connect provider beside the IdP, with a long name: the sign-in screen offers both.
const oidcName = `northwind-directory-${suffix}`;

let studio: Studio;
let idp: SAMLIdP;
let op: OIDCProvider;
let providerId: string;

test.beforeAll(async () => {
  test.setTimeout(90_000); // a first start migrates a new store: slow on a loaded machine
  studio = await startStudio();
  idp = await startSAMLIdP({
    spEntityId: `${studio.base}/auth/v1/sso/saml/metadata`,
    spAcsUrl: `${studio.base}/auth/v1/sso/saml/acs`,
    users: [ada, eve],
  });
  studio.cli("staff", "add", ada.email);
  providerId = studio.cli("sso", "add", "--metadata-url", idp.metadataUrl, "--domain", domain).trim();
  const client = { client_id: `studio-${suffix}`, client_secret: randomBytes(16).toString("hex"), redirect_uris: [`${studio.base}/auth/v1/callback`] };
  op = await startOIDCProvider({ clients: [client], users: [] });
  // Not execFileSync: discovery calls the provider, which runs in this process.
  await promisify(execFile)(
    resolve(import.meta.dirname, "../../bin/studio"),
    ["oauth", "add", oidcName, "--issuer", op.issuer, "--client-id", client.client_id, "--data", studio.dataDir],
    { env: { ...env, STUDIO_OAUTH_CLIENT_SECRET: client.client_secret } },
  );
});

test.afterAll(async () => {
  try {
    if (providerId) studio?.cli("sso", "remove", providerId);
    if (op) studio?.cli("oauth", "remove", oidcName);
  } finally {
    await op?.close();
    await idp?.close();
    await studio?.stop();
  }
});

/** startSSO starts at the console's sign-in screen: "Single sign-on", then the address. */
async function startSSO(page: Page, address: string) {
  await page.goto(`${studio.base}/admin`);
  await expect(page.getByRole("heading", { name: signInCopy.title })).toBeVisible();
  await page.getByRole("button", { name: signInCopy.sso.start }).click();
  await expect(page.getByRole("heading", { name: signInCopy.sso.title })).toBeVisible();
  await page.getByLabel(signInCopy.emailLabel).fill(address);
  await page.getByRole("button", { name: signInCopy.sso.submit }).click();
}

/** signInAtIdP signs in on SimpleSAMLphp's own login page, which then posts the response to the studio by itself. */
async function signInAtIdP(page: Page, user: { username: string; password: string }) {
  await expect(page).toHaveURL(new RegExp(`^${idp.url}/`));
  await page.locator("#username").fill(user.username);
  await page.locator("#password").fill(user.password);
  await page.getByRole("button", { name: "Login" }).click();
}

test("staff sign in through the IdP's login page into /admin", async ({ page }) => {
  await startSSO(page, ada.email);
  await signInAtIdP(page, ada);
  await expect(page.getByRole("heading", { level: 1, name: inboxCopy.title })).toBeVisible({ timeout: 20_000 });
  // The code is exchanged and taken out of the address bar.
  await expect(page).toHaveURL(`${studio.base}/admin`);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: inboxCopy.title })).toBeVisible();
  // The account screen says how the session began, and lists the IdP.
  await page.goto(`${studio.base}/admin/account`);
  await expect(page.getByTestId("session-level")).toHaveText(accountCopy.sessionLevel("sso", false));
  await expect(page.getByTestId("identity-list").getByText(accountCopy.identities.sso, { exact: true })).toBeVisible();
});

test("someone who is not staff comes back to the sign-in screen with the reason, and is not added", async ({ page }) => {
  // The address typed only picks the IdP; the IdP says who signed in.
  await startSSO(page, `someone@${domain}`);
  await signInAtIdP(page, eve);
  await expect(page.getByRole("heading", { name: signInCopy.title })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole("alert")).toHaveText(signInCopy.errors.provider("Signups not allowed for this instance"));
  await expect(page).toHaveURL(`${studio.base}/admin`);
  expect(studio.cli("staff", "list", "--format", "csv")).not.toContain(eve.email);
});

test("an address whose domain has no single sign-on is told so, and stays on the form", async ({ page }) => {
  await startSSO(page, `ada@no-sso-${suffix}.test`);
  await expect(page.getByRole("alert")).toHaveText(signInCopy.sso.notFound);
  await expect(page).toHaveURL(`${studio.base}/admin`);
});

test("Tab reaches the sign-in screen's buttons in order, each named", async ({ page }) => {
  await page.goto(`${studio.base}/admin`);
  await expect(page.getByRole("button", { name: signInCopy.sso.start })).toBeVisible();
  await page.getByLabel(signInCopy.emailLabel).focus();
  // On PostgreSQL the studios of a run share one store: other tests' providers may be offered too.
  const reached: string[] = [];
  while (reached.at(-1) !== signInCopy.sso.start && reached.length < 10) {
    await page.keyboard.press("Tab");
    reached.push(await page.evaluate(() => (document.activeElement as HTMLElement).innerText.trim()));
  }
  expect(reached[0]).toBe(signInCopy.send);
  expect(reached).toContain(signInCopy.withProvider(oidcName));
  expect(reached.slice(1, -1).every((name) => name.startsWith(signInCopy.withProvider("")))).toBe(true);
  expect(reached.at(-1)).toBe(signInCopy.sso.start);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: signInCopy.sso.title })).toBeVisible();
  await expect(page.getByLabel(signInCopy.emailLabel)).toBeFocused();
});


test("the sign-in screen with providers, the SSO step, a refusal and the account screen with the linked IdP have no axe violations at 1280 and 375 px, light and dark", async ({ browser }) => {
  test.setTimeout(180_000);
  const first = await browser.newContext();
  const signedIn = await first.newPage();
  await startSSO(signedIn, ada.email);
  await signInAtIdP(signedIn, ada);
  await expect(signedIn.getByRole("heading", { level: 1, name: inboxCopy.title })).toBeVisible({ timeout: 20_000 });
  const session = await first.storageState();
  await first.close();
  for (const width of [1280, 375]) {
    for (const theme of ["light", "dark"]) {
      const where = `${width}px ${theme}`;
      for (const storageState of [undefined, session]) {
        const context = await browser.newContext({ viewport: { width, height: 800 }, reducedMotion: "reduce", storageState });
        await context.addInitScript((t) => localStorage.setItem("theme", t), theme);
        const page = await context.newPage();
        if (!storageState) {
          await page.goto(`${studio.base}/admin`);
          await expect(page.getByRole("button", { name: signInCopy.withProvider(oidcName) })).toBeVisible();
          await expect(page.getByRole("button", { name: signInCopy.sso.start })).toBeVisible();
          await expectNoAxeViolations(page, `sign-in ${where}`);
          await page.getByRole("button", { name: signInCopy.sso.start }).click();
          await expect(page.getByRole("heading", { name: signInCopy.sso.title })).toBeVisible();
          await expectNoAxeViolations(page, `SSO step ${where}`);
          await page.goto(`${studio.base}/admin?from=idp#error=access_denied&error_code=signup_disabled&error_description=Signups+not+allowed+for+this+instance&sb=`);
          await expect(page.getByRole("alert")).toHaveText(signInCopy.errors.provider("Signups not allowed for this instance"));
          await expectNoAxeViolations(page, `refusal ${where}`);
        } else {
          await page.goto(`${studio.base}/admin/account`);
          await expect(page.getByTestId("identity-list").getByText(accountCopy.identities.sso, { exact: true })).toBeVisible();
          await expect(page.getByRole("button", { name: signInCopy.withProvider(oidcName) })).toHaveCount(0);
          await expect(page.locator('[aria-busy="true"], [role="status"]:has-text("Loading")')).toHaveCount(0);
          await expectNoAxeViolations(page, `account ${where}`);
        }
        await context.close();
      }
    }
  }
});
