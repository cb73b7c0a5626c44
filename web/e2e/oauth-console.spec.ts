/**
 * Staff sign in to /admin through an OpenID Connect provider in a real
 * browser: the console's "Sign in with NAME", the provider's own login page
 * (the certified oidc-provider package, auth-tests/idp/oidc-provider.mjs),
 * and back through /auth/v1/callback into the console. Someone who is not
 * staff comes back to the sign-in screen with the reason, and is not added.
 */
import { test, expect, type Page } from "@playwright/test";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { inboxCopy, signInCopy } from "../app/content/console";
import { env } from "../auth-tests/studio-env.mjs";
import { startOIDCProvider, type OIDCProvider } from "../auth-tests/idp/oidc-provider.mjs";
import { startStudio, type Studio } from "./staff-console";

const suffix = randomBytes(3).toString("hex");
// Unique per run: on PostgreSQL the studios of a run share one store.
const provider = `corp-${suffix}`;
const ada = { sub: `ada-${suffix}`, email: `ada-${suffix}@studio.test`, email_verified: true, name: "Ada", password: "ada's password" };
const eve = { sub: `eve-${suffix}`, email: `eve-${suffix}@elsewhere.test`, email_verified: true, password: "eve's password" };

let studio: Studio;
let op: OIDCProvider;

test.beforeAll(async () => {
  test.setTimeout(90_000); // a first start migrates a new store: slow on a loaded machine
  studio = await startStudio();
  const client = { client_id: `studio-${suffix}`, client_secret: randomBytes(16).toString("hex"), redirect_uris: [`${studio.base}/auth/v1/callback`] };
  op = await startOIDCProvider({ clients: [client], users: [ada, eve] });
  studio.cli("staff", "add", ada.email);
  // Not execFileSync: discovery calls the provider, which runs in this process.
  await promisify(execFile)(
    resolve(import.meta.dirname, "../../bin/studio"),
    ["oauth", "add", provider, "--issuer", op.issuer, "--client-id", client.client_id, "--data", studio.dataDir],
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
  // The provider's own page, on its own origin.
  await expect(page).toHaveURL(new RegExp(`^${op.issuer}/interaction/`));
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
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
