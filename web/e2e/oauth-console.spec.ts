/**
 * Staff sign in to /admin through an OpenID Connect provider in a real
 * browser: the console's "Sign in with NAME", the provider's own login page
 * (the certified oidc-provider package, auth-tests/idp/oidc-provider.mjs),
 * and back through /auth/v1/callback into the console. Someone who is not
 * staff comes back to the sign-in screen with the reason, and is not added.
 * On the account screen, a member of staff signed in with an e-mail code
 * links the provider ("Link NAME", its login page, back linked) and unlinks
 * it; an account at the provider that is another person's is refused there
 * with the reason.
 */
import { test, expect, type Browser, type Page } from "@playwright/test";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { accountCopy, inboxCopy, signInCopy } from "../app/content/console";
import { env } from "../auth-tests/studio-env.mjs";
import { startOIDCProvider, type OIDCProvider } from "../auth-tests/idp/oidc-provider.mjs";
import { signIn, startStudio, type Studio } from "./staff-console";

const suffix = randomBytes(3).toString("hex");
// Unique per run: on PostgreSQL the studios of a run share one store.
const provider = `corp-${suffix}`;
const ada = { sub: `ada-${suffix}`, email: `ada-${suffix}@studio.test`, email_verified: true, name: "Ada", password: "ada's password" };
const eve = { sub: `eve-${suffix}`, email: `eve-${suffix}@elsewhere.test`, email_verified: true, password: "eve's password" };
// Bob signs in with e-mail codes and links his account at the provider, whose address is not his staff address.
const bob = { email: `bob-${suffix}@studio.test` };
const bobAtProvider = { sub: `bob-work-${suffix}`, email: `bob.work-${suffix}@elsewhere.test`, email_verified: true, password: "bob's password" };
// Carol signs in through the provider: her account there is hers, not Bob's to link.
const carol = { sub: `carol-${suffix}`, email: `carol-${suffix}@studio.test`, email_verified: true, password: "carol's password" };

// One studio and one provider for the file's tests, in order: in parallel mode a worker may run
// beforeAll again for a later test, and the people it adds would then be staff already.
test.describe.configure({ mode: "serial" });

let studio: Studio;
let op: OIDCProvider;

test.beforeAll(async () => {
  test.setTimeout(90_000); // a first start migrates a new store: slow on a loaded machine
  studio = await startStudio();
  const client = { client_id: `studio-${suffix}`, client_secret: randomBytes(16).toString("hex"), redirect_uris: [`${studio.base}/auth/v1/callback`] };
  op = await startOIDCProvider({ clients: [client], users: [ada, eve, bobAtProvider, carol] });
  for (const person of [ada, bob, carol]) studio.cli("staff", "add", person.email);
  // Not execFileSync: discovery calls the provider, which runs in this process.
  await promisify(execFile)(
    resolve(import.meta.dirname, "../../bin/studio"),
    // The provider vouches for the staff's domain: Ada and Carol sign in through it.
    ["oauth", "add", provider, "--issuer", op.issuer, "--client-id", client.client_id, "--allow-domain", "studio.test", "--data", studio.dataDir],
    { env: { ...env, STUDIO_OAUTH_CLIENT_SECRET: client.client_secret } },
  );
});

test.afterAll(async () => {
  try {
    studio?.cli("oauth", "remove", provider);
  } finally {
    await op?.close();
    await studio?.stop();
  }
});

/** signInAtProvider starts at the console's sign-in screen and signs in on the provider's login page. */
async function signInAtProvider(page: Page, user: { email: string; password: string }) {
  await page.goto(`${studio.base}/admin`);
  await expect(page.getByRole("heading", { name: signInCopy.title })).toBeVisible();
  await page.getByRole("button", { name: signInCopy.withProvider(provider) }).click();
  await logInAtProvider(page, user);
}

/** logInAtProvider fills the provider's own login page, on its own origin. */
async function logInAtProvider(page: Page, user: { email: string; password: string }) {
  await expect(page).toHaveURL(new RegExp(`^${op.issuer}/interaction/`));
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** signInMethods signs Bob in with an e-mail code and opens the account screen's sign-in methods. */
async function signInMethods(page: Page) {
  await signIn(page, studio, bob.email, { fromCli: true });
  await page.goto(`${studio.base}/admin/account`);
  const methods = page.getByRole("region", { name: accountCopy.identities.title });
  await expect(methods.getByTestId("identity-list").getByText(accountCopy.identities.email, { exact: true })).toBeVisible();
  return methods;
}

/** signInThroughProviderElsewhere signs user in through the provider in a browser of their own, tying the account to them. */
async function signInThroughProviderElsewhere(browser: Browser, user: { email: string; password: string }) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await signInAtProvider(page, user);
    await expect(page.getByRole("heading", { level: 1, name: inboxCopy.title })).toBeVisible({ timeout: 20_000 });
  } finally {
    await context.close();
  }
}

test("staff sign in through the provider's login page into /admin", async ({ page }) => {
  await signInAtProvider(page, ada);
  await expect(page.getByRole("heading", { level: 1, name: inboxCopy.title })).toBeVisible({ timeout: 20_000 });
  // The code is exchanged and taken out of the address bar.
  await expect(page).toHaveURL(`${studio.base}/admin`);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: inboxCopy.title })).toBeVisible();
});

test("someone who is not staff comes back to the sign-in screen with the reason, and is not added", async ({ page }) => {
  await signInAtProvider(page, eve);
  await expect(page.getByRole("heading", { name: signInCopy.title })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText(/Signups not allowed/)).toBeVisible();
  await expect(page).toHaveURL(`${studio.base}/admin`);
  expect(studio.cli("staff", "list", "--format", "csv")).not.toContain(eve.email);
});

test("a member of staff signed in with an e-mail code links the provider on the account screen, then unlinks it", async ({ page }) => {
  const methods = await signInMethods(page);
  const list = methods.getByTestId("identity-list");
  await methods.getByRole("button", { name: accountCopy.identities.link(provider), exact: true }).click();
  await logInAtProvider(page, bobAtProvider);
  // Back on the account screen, still Bob, with the provider listed.
  await expect(page).toHaveURL(`${studio.base}/admin/account`, { timeout: 20_000 });
  await expect(list.getByText(provider, { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText(bob.email).first()).toBeVisible();
  await expect(methods.getByRole("button", { name: accountCopy.identities.link(provider), exact: true })).toHaveCount(0);

  let asked = "";
  page.once("dialog", (dialog) => {
    asked = dialog.message();
    void dialog.accept();
  });
  await list.getByRole("button", { name: `${accountCopy.identities.unlink} ${provider}` }).click();
  await expect(list.getByText(provider, { exact: true })).toHaveCount(0);
  expect(asked).toBe(accountCopy.identities.unlinkConfirm);
  await expect(methods.getByRole("button", { name: accountCopy.identities.link(provider), exact: true })).toBeVisible();
  await expect(list.getByText(accountCopy.identities.email, { exact: true })).toBeVisible();
});

test("linking someone else's account at the provider is refused on the account screen, still signed in", async ({ page, browser }) => {
  await signInThroughProviderElsewhere(browser, carol);
  const methods = await signInMethods(page);
  await methods.getByRole("button", { name: accountCopy.identities.link(provider), exact: true }).click();
  await logInAtProvider(page, carol);
  await expect(page).toHaveURL(`${studio.base}/admin/account`, { timeout: 20_000 });
  await expect(methods.getByRole("alert")).toHaveText(accountCopy.identities.linkFailed("Identity is already linked to another user"));
  await expect(methods.getByTestId("identity-list").getByText(provider, { exact: true })).toHaveCount(0);
  await expect(methods.getByRole("button", { name: accountCopy.identities.link(provider), exact: true })).toBeVisible();
});
