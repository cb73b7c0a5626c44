/**
 * Staff sign in to /admin through SAML single sign-on in a real browser:
 * the console's "Single sign-on", the work address (its domain picks the
 * identity provider), SimpleSAMLphp's own login page (Debian's package, not
 * our code: auth-tests/idp/saml-idp.mjs), its auto-posting page to the ACS,
 * and back into the console. Someone who is not staff comes back to the
 * sign-in screen with the reason, and is not added; an address whose domain
 * has no single sign-on is told so.
 */
import { test, expect, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { inboxCopy, signInCopy } from "../app/content/console";
import { startSAMLIdP, type SAMLIdP } from "../auth-tests/idp/saml-idp.mjs";
import { startStudio, type Studio } from "./staff-console";

// One studio and one IdP for the file's tests, in order.
test.describe.configure({ mode: "serial" });

const suffix = randomBytes(3).toString("hex");
// Unique per run: on PostgreSQL the studios of a run share one store, and an SSO domain belongs to one IdP.
const domain = `sso-${suffix}.test`;
const ada = { username: "ada", password: "ada's password", email: `ada@${domain}` };
const eve = { username: "eve", password: "eve's password", email: `eve-${suffix}@elsewhere.test` };

let studio: Studio;
let idp: SAMLIdP;
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
});

test.afterAll(async () => {
  try {
    if (providerId) studio?.cli("sso", "remove", providerId);
  } finally {
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
