/**
 * The staff console's sign-in with a CAPTCHA provider (no --captcha-forms),
 * in Chromium, against a studio server of its own whose CAPTCHA is a fake
 * widget and siteverify on a loopback peer (captcha-peer.ts). /admin names
 * the widget and admits its origins, the public pages do neither; no code is
 * sent or checked before the check is passed, and each call takes a fresh
 * token; a mailed link waits for the check too.
 */
import { test, expect, type Browser, type Page } from "@playwright/test";
import { inboxCopy, signInCopy } from "../app/content/console";
import { startCaptchaPeer, widgetLabels, type CaptchaPeer } from "./captcha-peer";
import { mailedSignIn, startStudio, type Studio } from "./staff-console";

let peer: CaptchaPeer;
let studio: Studio;

test.beforeAll(async () => {
  test.setTimeout(90_000); // a first start migrates a new store: slow on a loaded machine
  peer = await startCaptchaPeer();
  studio = await startStudio(peer.studioArgs);
});

test.afterAll(async () => {
  await studio?.stop();
  peer?.close();
});

let staffCount = 0;
function addStaff(name: string): string {
  const email = `${name.toLowerCase()}+${Date.now().toString(36)}${staffCount++}@studio.test`;
  expect(studio.cli("staff", "add", email, "--name", name)).toContain(`added ${email}`);
  return email;
}

/** watched is a page that records the sign-in calls it makes (their paths under /auth/v1) and may reach only the site and the peer. */
async function watched(browser: Browser): Promise<{ page: Page; authCalls: string[] }> {
  const context = await browser.newContext();
  const allowed = [new URL(studio.base).host, new URL(peer.base).host];
  await context.route("**", (route) => (allowed.includes(new URL(route.request().url()).host) ? route.continue() : route.abort()));
  const authCalls: string[] = [];
  context.on("request", (r) => {
    const path = new URL(r.url()).pathname;
    if (r.method() === "POST" && /^\/auth\/v1\/(otp|verify|sso)$/.test(path)) authCalls.push(path.slice("/auth/v1".length));
  });
  return { page: await context.newPage(), authCalls };
}

const widget = (page: Page) => page.getByTestId("captcha-check");
const passCheck = async (page: Page) => {
  await widget(page).getByRole("button", { name: widgetLabels.check }).click();
  await expect(widget(page).getByRole("button", { name: widgetLabels.passed })).toBeVisible();
};

test("/admin names the widget and admits its origins; the public pages do neither", async ({ request }) => {
  const admin = await request.get(`${studio.base}/admin/inbox`);
  const csp = admin.headers()["content-security-policy"] ?? "";
  expect(csp.split("; ").find((d) => d.startsWith("script-src "))).toContain(` ${peer.base}`);
  expect(csp).toContain(`frame-src 'self' ${peer.base}`);
  expect(await admin.text()).toContain(`<meta name="studio-captcha" content="on" data-provider="hcaptcha" data-site-key="site-key-1" data-script-url="${peer.base}/widget.js">`);

  const contact = await request.get(`${studio.base}/contact`);
  expect(contact.headers()["content-security-policy"]).not.toContain(peer.base);
  expect(contact.headers()["content-security-policy"]).not.toContain("frame-src");
  expect(await contact.text()).toContain(`<meta name="studio-captcha" content="off">`);
});

test("staff sign in with an e-mail code after passing the check; without it, no code is sent or checked", async ({ browser }) => {
  const email = addStaff("Ada");
  const { page, authCalls } = await watched(browser);
  await page.goto(`${studio.base}/admin`);
  await page.getByLabel(signInCopy.emailLabel).fill(email);
  await expect(widget(page).getByRole("button", { name: widgetLabels.check })).toBeVisible();

  // Not passed: nothing is sent, and the screen says why.
  const mailsBefore = studio.smtp.mails.length;
  await page.getByRole("button", { name: signInCopy.send }).click();
  await expect(widget(page).getByRole("alert")).toHaveText(signInCopy.captcha.missing);
  expect(authCalls).toEqual([]);

  await passCheck(page);
  await expect(widget(page).getByRole("alert")).toHaveCount(0);
  await page.getByRole("button", { name: signInCopy.send }).click();
  await expect(page.getByRole("heading", { name: signInCopy.checkMail.title })).toBeVisible();
  const { code } = await mailedSignIn(studio, email, mailsBefore);

  // The token was spent on the code: checking it needs the check again.
  await page.getByLabel(signInCopy.codeLabel).fill(code);
  await page.getByRole("button", { name: signInCopy.verify }).click();
  await expect(widget(page).getByRole("alert")).toHaveText(signInCopy.captcha.missing);
  expect(authCalls).toEqual(["/otp"]);

  await passCheck(page);
  await page.getByRole("button", { name: signInCopy.verify }).click();
  await expect(page.getByRole("heading", { level: 1, name: inboxCopy.title })).toBeVisible({ timeout: 20_000 });
  expect(authCalls).toEqual(["/otp", "/verify"]);
  expect(peer.verified.slice(-2).map((v) => v.ok)).toEqual([true, true]);
  await page.context().close();
});

test("a mailed link asks for the check before it signs in", async ({ browser }) => {
  const email = addStaff("Grace");
  const { page, authCalls } = await watched(browser);
  await page.goto(`${studio.base}/admin`);
  await page.getByLabel(signInCopy.emailLabel).fill(email);
  await passCheck(page);
  const mailsBefore = studio.smtp.mails.length;
  await page.getByRole("button", { name: signInCopy.send }).click();
  await expect(page.getByRole("heading", { name: signInCopy.checkMail.title })).toBeVisible();
  const { link } = await mailedSignIn(studio, email, mailsBefore);

  await page.goto(link);
  await expect(page.getByRole("heading", { name: signInCopy.confirmLink.title })).toBeVisible();
  expect(new URL(page.url()).search).not.toContain("token_hash"); // taken out of the address bar at once
  await page.getByRole("button", { name: signInCopy.confirmLink.submit, exact: true }).click();
  await expect(widget(page).getByRole("alert")).toHaveText(signInCopy.captcha.missing);
  expect(authCalls).toEqual(["/otp"]);

  await passCheck(page);
  await page.getByRole("button", { name: signInCopy.confirmLink.submit, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: inboxCopy.title })).toBeVisible({ timeout: 20_000 });
  expect(authCalls).toEqual(["/otp", "/verify"]);
  await page.context().close();
});
