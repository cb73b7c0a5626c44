/**
 * The public forms with --captcha-forms, in Chromium, against a studio
 * server of its own whose CAPTCHA is a fake widget and siteverify served by
 * a loopback peer (--captcha-script-url, --captcha-verify-url): nothing
 * leaves the machine. No widget script before the first input; then the
 * widget shows, the form is not sent before the visitor passed it, and is
 * sent once they did; without JavaScript the form says it cannot be sent,
 * and a native post is refused with that explanation and stores nothing.
 */
import type { Page } from "@playwright/test";
import { test, expect } from "@playwright/test";
import { startStudio, type Studio } from "./staff-console";
import { startCaptchaPeer, type CaptchaPeer } from "./captcha-peer";
import { contactForm } from "../app/content/contact";
import { captchaMessages } from "../app/lib/captcha";
import { baseURL } from "../playwright.config";

let peer: CaptchaPeer;
let peerBase: string;
let studio: Studio;

test.beforeAll(async () => {
  test.setTimeout(90_000); // a first start migrates a new store: slow on a loaded machine
  peer = await startCaptchaPeer();
  peerBase = peer.base;
  studio = await startStudio([...peer.studioArgs, "--captcha-forms"]);
});

test.afterAll(async () => {
  await studio?.stop();
  peer?.close();
});

const stored = () => (JSON.parse(studio.cli("messages", "list", "--format", "json")) as unknown[]).length;

/** watched is a page that records the URLs it asks of the peer, and may reach no other host than the site and the peer. */
async function watched(browser: import("@playwright/test").Browser, javaScriptEnabled = true): Promise<{ page: Page; peerRequests: string[] }> {
  const context = await browser.newContext({ javaScriptEnabled });
  const allowed = [new URL(studio.base).host, new URL(peerBase).host];
  const peerRequests: string[] = [];
  context.on("request", (r) => {
    if (new URL(r.url()).host === new URL(peerBase).host) peerRequests.push(r.url());
  });
  await context.route("**", (route) => (allowed.includes(new URL(route.request().url()).host) ? route.continue() : route.abort()));
  return { page: await context.newPage(), peerRequests };
}

const field = (page: Page, label: string) => page.getByRole("textbox", { name: new RegExp(`^${label}`) });

test("the contact form loads the widget at the first input, is not sent before the check, and is sent after it", async ({ browser }) => {
  const { page, peerRequests } = await watched(browser);
  const response = await page.goto(`${studio.base}/contact`);
  const csp = response?.headers()["content-security-policy"] ?? "";
  expect(csp.split("; ").find((d) => d.startsWith("script-src "))).toContain(` ${peerBase}`);
  expect(csp).toContain(`frame-src 'self' ${peerBase}`);
  await page.getByRole("heading", { name: contactForm.title }).hover(); // islands may wake; still no input
  await page.waitForTimeout(300);
  expect(peerRequests).toEqual([]);

  await field(page, "Name").click();
  await field(page, "Name").pressSequentially("Ada Lovelace");
  await expect(page.getByRole("button", { name: "I am a person" })).toBeVisible();
  expect(peerRequests.map((u) => new URL(u).pathname)).toEqual(["/widget.js"]);
  expect(await page.evaluate(() => (window as unknown as { __captchaSiteKey: string }).__captchaSiteKey)).toBe("site-key-1");
  await field(page, "Email").fill("ada@example.com");
  await field(page, "Message").fill("Let's build an MVP.");

  const before = stored();
  await page.getByRole("button", { name: contactForm.submit }).click();
  await expect(page.getByRole("alert").filter({ hasText: captchaMessages.missing })).toBeVisible();
  expect(stored()).toBe(before);

  await page.getByRole("button", { name: "I am a person" }).click();
  await page.getByRole("button", { name: contactForm.submit }).click();
  await expect(page.getByRole("heading", { name: contactForm.success.title })).toBeVisible();
  expect(stored()).toBe(before + 1);
  await page.context().close();
});

test("a call without a token is refused with a JSON error and stores nothing", async () => {
  const before = stored();
  const res = await fetch(`${studio.base}/functions/v1/submit-contact`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Eve", email: "eve@example.com", company: null, phone: null, message: "Hi", captcha_token: "forged" }),
  });
  expect(res.status).toBe(400);
  expect((await res.json()).error).toBe(captchaMessages.missing);
  expect(stored()).toBe(before);
});

test("without JavaScript the form says it cannot be sent, and a native post is refused with that explanation", async ({ browser }) => {
  const { page, peerRequests } = await watched(browser, false);
  await page.goto(`${studio.base}/contact`);
  // (getByText does not look into <noscript>)
  await expect(page.locator("form .captcha-noscript")).toHaveText(captchaMessages.noScript);
  await expect(page.locator("form .captcha-noscript")).toBeVisible();
  await field(page, "Name").fill("Ada Lovelace");
  await field(page, "Email").fill("ada@example.com");
  await field(page, "Message").fill("Let's build an MVP.");
  const before = stored();
  await page.getByRole("button", { name: contactForm.submit }).click();
  await expect(page).toHaveURL(/\/forms\/problem\/captcha$/);
  await expect(page.getByText(captchaMessages.noScript)).toBeVisible();
  expect(stored()).toBe(before);
  expect(peerRequests).toEqual([]);
  await page.context().close();
});

test("without --captcha-forms the note stays hidden and the policy admits no other origin", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  const response = await page.goto("/contact");
  expect(response?.headers()["content-security-policy"]).not.toContain("frame-src");
  await expect(page.locator("form .captcha-noscript")).toBeHidden();
  await context.close();
});
