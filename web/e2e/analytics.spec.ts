import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test, expect, type Browser, type BrowserContextOptions, type Page } from "@playwright/test";
import { contactForm } from "../app/content/contact";
import { cookieBanner } from "../app/content/site";

/**
 * Analytics counted by the binary (docs/analytics.md): a studio of this
 * spec's own, so that its counts are exactly what these visits did. Headless
 * Chromium says so in its user agent, and is not counted (a bot); each
 * visitor here is a desktop Chrome of its own.
 */
const port = Number(process.env.E2E_PORT ?? 4319) + 2;
const origin = `http://127.0.0.1:${port}`;
const data = mkdtempSync(join(tmpdir(), "studio-e2e-analytics-"));
let server: ChildProcess;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  server = spawn("../bin/studio", ["serve", "--addr", `127.0.0.1:${port}`, "--data", data, "--rate-limit", "off"], { stdio: "ignore" });
  await expect.poll(async () => (await fetch(`${origin}/healthz`).catch(() => null))?.status, { timeout: 15_000 }).toBe(200);
});

test.afterAll(() => {
  server.kill();
});

type Summary = {
  views: number;
  visitors: number;
  pages: { path: string; views: number }[];
  sources: { source: string; visitors: number }[];
  campaigns: { utm_source: string; utm_campaign: string; visitors: number }[];
  conversions: { goal: string; count: number }[];
  not_counted: { bot: number; gpc: number; dnt: number };
};

function summary(): Summary {
  const out = execFileSync("../bin/studio", ["analytics", "summary", "--since", "1d", "--format", "json", "--data", data], { encoding: "utf8" });
  return JSON.parse(out) as Summary;
}

const viewsOf = (path: string) => summary().pages.find((p) => p.path === path)?.views ?? 0;

let visitors = 0;
/** visitor is a new desktop Chrome, its own visitor (its user agent differs), who has not chosen about cookies. */
async function visitor(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  visitors++;
  const context = await browser.newContext({
    baseURL: origin,
    userAgent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.${visitors}.0 Safari/537.36`,
    ...options,
  });
  return context.newPage();
}

test("a page shown is counted once; a link hovered and prefetched but never followed is not", async ({ browser }) => {
  const page = await visitor(browser);
  const prefetched: string[] = [];
  page.on("request", (r) => r.headers()["sec-purpose"]?.includes("prefetch") && prefetched.push(new URL(r.url()).pathname));
  await page.goto("/");
  await expect.poll(() => viewsOf("/")).toBe(1);

  // Hovered long enough to be prefetched (the speculation rules' moderate eagerness), never clicked.
  const about = page.locator('header a[href="/about"]').first();
  await about.hover();
  await expect.poll(() => prefetched).toContain("/about");
  await page.mouse.move(0, 400);

  // Hovered, prefetched, then followed: shown from the prefetch, counted once.
  const studio = page.locator('header a[href="/studio"]').first();
  await studio.hover();
  await expect.poll(() => prefetched).toContain("/studio");
  await studio.click();
  await expect(page).toHaveURL(/\/studio$/);
  await expect.poll(() => viewsOf("/studio")).toBe(1);
  await page.waitForTimeout(1500); // a flush more: nothing else arrives
  expect(viewsOf("/about")).toBe(0);
  expect(viewsOf("/studio")).toBe(1);
  expect(viewsOf("/")).toBe(1);
});

test("a page is counted with JavaScript off", async ({ browser }) => {
  const page = await visitor(browser, { javaScriptEnabled: false });
  await page.goto("/legal/terms");
  await expect.poll(() => viewsOf("/legal/terms")).toBe(1);
});

test("Decline: the visitor's next pages are not counted", async ({ browser }) => {
  const page = await visitor(browser);
  await page.goto("/legal/privacy");
  await page.getByRole("button", { name: cookieBanner.decline }).click();
  await expect(page.getByRole("button", { name: cookieBanner.decline })).toHaveCount(0);
  await page.goto("/legal/cookies");
  await expect(page.locator("html")).toHaveAttribute("data-cookie-consent", "declined");
  await page.goto("/legal/affiliate-disclosure");
  await expect.poll(() => viewsOf("/legal/privacy")).toBe(1);
  await page.waitForTimeout(1500);
  expect(viewsOf("/legal/cookies")).toBe(0);
  expect(viewsOf("/legal/affiliate-disclosure")).toBe(0);
});

test("Global Privacy Control and Do Not Track are not counted, only tallied", async ({ browser }) => {
  const before = summary().not_counted;
  const gpc = await visitor(browser, { extraHTTPHeaders: { "Sec-GPC": "1" } });
  await gpc.goto("/resources");
  const dnt = await visitor(browser, { extraHTTPHeaders: { DNT: "1" } });
  await dnt.goto("/resources");
  await expect.poll(() => summary().not_counted.gpc).toBe(before.gpc + 1);
  await expect.poll(() => summary().not_counted.dnt).toBe(before.dnt + 1);
  expect(viewsOf("/resources")).toBe(0);
});

test("headless Chromium, as it says it is, is a bot: tallied, not counted", async ({ browser }) => {
  const before = summary().not_counted.bot;
  const context = await browser.newContext({ baseURL: origin });
  const page = await context.newPage();
  await page.goto("/products");
  await expect.poll(() => summary().not_counted.bot).toBe(before + 1);
  expect(viewsOf("/products")).toBe(0);
});

test("a contact message is a conversion of the visit's source and campaign", async ({ browser }) => {
  const page = await visitor(browser);
  await page.goto("/contact?utm_source=newsletter&utm_medium=email&utm_campaign=autumn", { referer: "https://news.example/post" });
  await page.getByRole("textbox", { name: /^Name/ }).fill("Ada Lovelace");
  await page.getByRole("textbox", { name: /^Email/ }).fill("ada@example.com");
  await page.getByRole("textbox", { name: /^Message/ }).fill("Counted, not tracked.");
  await page.getByRole("button", { name: contactForm.submit }).click();
  await expect(page.getByRole("heading", { name: contactForm.success.title })).toBeVisible();
  await expect.poll(() => summary().conversions.find((c) => c.goal === "contact_message_sent")?.count).toBe(1);
  const sum = summary();
  expect(sum.sources).toContainEqual({ source: "news.example", visitors: 1 });
  expect(sum.campaigns).toContainEqual(expect.objectContaining({ utm_source: "newsletter", utm_campaign: "autumn", visitors: 1 }));
});

test("a template downloaded and the demo followed are goals; the demo's link stays a same-site redirect", async ({ browser }) => {
  const page = await visitor(browser);
  await page.goto("/resources/templates");
  const download = page.locator('a[href^="/storage/v1/object/public/downloads/"]').first();
  const file = await page.request.get((await download.getAttribute("href"))!);
  expect(file.status()).toBe(200);
  await page.goto("/products/aurion");
  const demo = page.getByRole("link", { name: /Try Demo/ }).first();
  await expect(demo).toHaveAttribute("href", "/go/demo");
  const followed = await page.request.get("/go/demo", { maxRedirects: 0 });
  expect(followed.status()).toBe(302);
  expect(followed.headers()["location"]).toMatch(/^https:\/\/demo\./);
  await expect.poll(() => summary().conversions.find((c) => c.goal === "template_downloaded")?.count).toBe(1);
  await expect.poll(() => summary().conversions.find((c) => c.goal === "demo_opened")?.count).toBe(1);
});
