/**
 * Passkeys in the staff console, in Chromium with its virtual authenticator
 * (the DevTools protocol's WebAuthn domain) standing in for the device's:
 * the browser makes and uses a real credential, and the binary's /auth/v1
 * verifies what supabase-js sends. The server's site is http://localhost:PORT
 * (a relying party id cannot be an IP address); the same server reached as
 * http://127.0.0.1:PORT is another origin, whose passkey requests it refuses.
 */
import { test, expect, type Browser, type CDPSession, type Page } from "@playwright/test";
import { inboxCopy, mfaCopy, passkeyCopy, accountCopy, signInCopy } from "../app/content/console";
import { SESSION_STORAGE_KEY } from "../app/admin/data/client";
import { signIn, startStudio, type Studio } from "./staff-console";
import { expectNoAxeViolations } from "./axe";

let studio: Studio;

test.beforeAll(async () => {
  test.setTimeout(90_000); // a first start migrates a new store: slow on a loaded machine
  studio = await startStudio([], { host: "localhost" });
});

test.afterAll(async () => {
  await studio?.stop();
});

/** addStaff adds a new member of staff with the CLI and returns the address. */
function addStaff(name: string): string {
  const email = `${name.toLowerCase()}+${Date.now().toString(36)}@studio.test`;
  expect(studio.cli("staff", "add", email, "--name", name)).toContain(`added ${email}`);
  return email;
}

type Authenticator = { cdp: CDPSession; id: string };

/** newPageWithPasskeys is a page of a new context whose browser has a platform authenticator that says yes at once. */
async function newPageWithPasskeys(browser: Browser): Promise<{ page: Page; authenticator: Authenticator }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: "reduce" });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable", { enableUI: false });
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { page, authenticator: { cdp, id: authenticatorId } };
}

/** signCounts are the signature counters of the authenticator's credentials. */
async function signCounts({ cdp, id }: Authenticator): Promise<number[]> {
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId: id });
  return credentials.map((c) => c.signCount);
}

/** addPasskey adds a passkey named name on the account page. */
async function addPasskey(page: Page, name: string) {
  await page.getByRole("link", { name: "Account" }).click();
  await page.getByLabel(passkeyCopy.nameLabel).fill(name);
  await page.getByRole("button", { name: passkeyCopy.add }).click();
  await expect(page.getByTestId("passkey-list")).toContainText(name);
}

test.describe("passkeys", () => {
  test("add a passkey on the account page, sign out, sign in with the e-mail code and the passkey to aal2", async ({ browser }) => {
    test.setTimeout(90_000);
    const email = addStaff("Radia");
    const { page, authenticator } = await newPageWithPasskeys(browser);
    await signIn(page, studio, email);
    await page.getByRole("link", { name: "Account" }).click();
    await expect(page.getByText(passkeyCopy.none)).toBeVisible();

    // A passkey needs a name.
    await page.getByRole("button", { name: passkeyCopy.add }).click();
    await expect(page.getByText(passkeyCopy.errors.name)).toBeVisible();
    await expect(page.getByLabel(passkeyCopy.nameLabel)).toHaveAttribute("aria-invalid", "true");
    await expectNoAxeViolations(page, "a passkey without a name");

    await addPasskey(page, "Work laptop");
    await expect(page.getByTestId("session-level")).toHaveAttribute("data-level", "aal2");
    expect(await signCounts(authenticator)).toHaveLength(1);
    const audit = studio.cli("audit", "list", "--format", "json");
    expect(audit).toContain("factor_enrolled");
    expect(audit).toContain("factor_verified");

    await page.getByRole("button", { name: accountCopy.signOut.here }).click();
    await expect(page.getByLabel(signInCopy.emailLabel)).toBeVisible(); // signed out before the next visit
    await signIn(page, studio, email, { fromCli: true });
    await expect(page.getByRole("heading", { name: mfaCopy.title })).toBeVisible();
    const before = (await signCounts(authenticator))[0]!;
    await page.getByRole("button", { name: mfaCopy.passkey.use(undefined) }).click();
    await expect(page.getByRole("heading", { level: 1, name: inboxCopy.title })).toBeVisible();
    expect((await signCounts(authenticator))[0]).toBeGreaterThan(before);
    // The session's access token: aal2, raised by the passkey.
    const claims = await page.evaluate((key) => {
      const token = (JSON.parse(localStorage.getItem(key) ?? "{}") as { access_token?: string }).access_token ?? "";
      return JSON.parse(atob(token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))) as { aal: string; amr: { method: string }[] };
    }, SESSION_STORAGE_KEY);
    expect(claims.aal).toBe("aal2");
    expect(claims.amr.map((a) => a.method)).toEqual(["mfa/webauthn", "otp"]);

    // Removed from an aal2 session, the passkey is no longer asked for.
    await page.getByRole("link", { name: "Account" }).click();
    page.once("dialog", (d) => void d.accept());
    await page.getByRole("button", { name: passkeyCopy.removeLabel("Work laptop") }).click();
    await expect(page.getByText(passkeyCopy.none)).toBeVisible();
  });

  test("the verify request replayed is refused, on its own challenge and on a new one", async ({ browser }) => {
    test.setTimeout(90_000);
    const email = addStaff("Barbara");
    const { page } = await newPageWithPasskeys(browser);
    await signIn(page, studio, email);
    await addPasskey(page, "Laptop");
    await page.getByRole("button", { name: accountCopy.signOut.here }).click();
    await expect(page.getByLabel(signInCopy.emailLabel)).toBeVisible(); // signed out before the next visit
    await signIn(page, studio, email, { fromCli: true });

    // The console's own request, as supabase-js sends it, is recorded as it goes out.
    let sent: { url: string; headers: Record<string, string>; body: string } | undefined;
    await page.route("**/auth/v1/factors/*/verify", async (route) => {
      sent = { url: route.request().url(), headers: route.request().headers(), body: route.request().postData()! };
      await route.continue();
    });
    await page.getByRole("button", { name: mfaCopy.passkey.use(undefined) }).click();
    await expect(page.getByRole("heading", { level: 1, name: inboxCopy.title })).toBeVisible();
    expect(sent).toBeDefined();
    const body = JSON.parse(sent!.body) as { challenge_id: string; webauthn: { type: string; rpId: string; rpOrigins: string[]; credential_response: unknown } };
    expect(body.webauthn.type).toBe("request");
    expect(body.webauthn.rpId).toBe("localhost");
    expect(body.webauthn.rpOrigins).toEqual([studio.base]);

    const api = studio.base.replace("localhost", "127.0.0.1");
    const headers = { authorization: sent!.headers["authorization"]!, apikey: sent!.headers["apikey"] ?? "", "content-type": "application/json" };
    const path = new URL(sent!.url).pathname;
    const again = await page.request.post(api + path, { headers, data: sent!.body });
    expect(again.status()).toBe(422);
    expect((await again.json()).error_code).toBe("mfa_ip_address_mismatch");

    const challenge = await page.request.post(api + path.replace(/verify$/, "challenge"), { headers, data: { webauthn: { rpId: "localhost" } } });
    expect(challenge.status()).toBe(200);
    const fresh = { ...body, challenge_id: ((await challenge.json()) as { id: string }).id };
    const replayed = await page.request.post(api + path, { headers, data: fresh });
    expect(replayed.status()).toBe(422);
    expect((await replayed.json()).error_code).toBe("mfa_verification_failed");
  });

  test("the console opened at another origin than the site's: its passkey requests are refused", async ({ browser }) => {
    test.setTimeout(90_000);
    const email = addStaff("Frances");
    const { page } = await newPageWithPasskeys(browser);
    await signIn(page, studio, email);
    await addPasskey(page, "Laptop");

    // The same server at http://127.0.0.1:PORT: supabase-js says so (rpId 127.0.0.1), and the server refuses.
    const elsewhere = { ...studio, base: studio.base.replace("localhost", "127.0.0.1") };
    const other = await newPageWithPasskeys(browser);
    await signIn(other.page, elsewhere, email, { fromCli: true });
    await expect(other.page.getByRole("heading", { name: mfaCopy.title })).toBeVisible();
    const refused = other.page.waitForResponse((r) => r.url().endsWith("/challenge"));
    await other.page.getByRole("button", { name: mfaCopy.passkey.use(undefined) }).click();
    const answer = await refused;
    expect(answer.status()).toBe(400);
    expect(await answer.text()).toContain("rpId must be this site's host name");
    await expect(other.page.getByRole("alert")).toHaveText(passkeyCopy.errors.refused);
    await expect(other.page.getByRole("button", { name: mfaCopy.passkey.use(undefined) })).toBeEnabled();
  });
});
