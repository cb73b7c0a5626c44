/**
 * The console's analytics screen against a studio server of its own (one a
 * worker): real page views counted by the binary first — each by a desktop
 * Chrome of its own that has made no cookie choice (headless Chromium says
 * so in its user agent and is not counted; the shared fixtures' "declined"
 * turns counting off) — then the screen shows them, follows a new view
 * live over realtime/v1, filters by a page clicked, and has no axe
 * violations at 375 and 1280 px, light and dark.
 */
import { readFileSync } from "node:fs";
import { test, expect, type Browser, type Page } from "@playwright/test";
import { analyticsCopy } from "../app/content/console-analytics";
import { consoleNav, listCopy } from "../app/content/console";
import { axeViolations } from "./axe";
import { hold } from "./fixtures";
import { signIn, startStudio, type Studio } from "./staff-console";

let studio: Studio;

test.beforeAll(async () => {
  test.setTimeout(90_000); // a first start migrates a new store: slow on a loaded machine
  studio = await startStudio();
});

test.afterAll(async () => {
  await studio?.stop();
});

let visitors = 0;
/** visit shows path to a new visitor: a desktop Chrome (its own user agent, so its own visitor) with no cookie choice made. */
async function visit(browser: Browser, path: string): Promise<void> {
  visitors++;
  const context = await browser.newContext({
    userAgent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.${visitors}.0 Safari/537.36`,
  });
  const page = await context.newPage();
  await page.goto(studio.base + path);
  await context.close();
}

/** views is what the server has counted today (the CLI reads the same store). */
function views(): number {
  return (JSON.parse(studio.cli("analytics", "summary", "--since", "1d", "--format", "json")) as { views: number }).views;
}

const stat = (page: Page, key: string) => page.getByTestId(`stat-${key}`).locator("dd").first();

test("counted views show on the screen, live; a page clicked filters it; no axe violations at 375 and 1280 px, light and dark", async ({ browser }) => {
  test.setTimeout(120_000);
  await visit(browser, "/");
  await visit(browser, "/about");
  await visit(browser, "/about");
  // Views are written in batches at most a second apart.
  await expect.poll(views, { timeout: 10_000 }).toBe(3);

  const email = `ada+${Date.now().toString(36)}@studio.test`;
  expect(studio.cli("staff", "add", email, "--name", "Ada")).toContain(`added ${email}`);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" });
  await context.addInitScript(() => localStorage.setItem("theme", localStorage.getItem("theme") ?? "light"));
  const page = await context.newPage();
  await signIn(page, studio, email, { fromCli: true });
  await page.getByRole("link", { name: consoleNav.find((n) => n.screen === "analytics")!.label }).click();
  await expect(page).toHaveURL(/\/admin\/analytics$/);
  await expect(page.getByRole("heading", { level: 1, name: analyticsCopy.title })).toBeVisible();
  await expect(stat(page, "views")).toHaveText("3");
  await expect(stat(page, "visitors")).toHaveText("3");
  await expect(page.getByTestId("visitors-now")).toHaveText(analyticsCopy.visitorsNow(3));
  const pages = page.getByTestId("list-pages");
  await expect(pages.getByRole("row", { name: /\/about/ })).toContainText("2");
  await expect(page.getByTestId("analytics-chart").locator("canvas").first()).toBeVisible();

  // A new view reaches the open screen over the live feed, with no reload.
  await visit(browser, "/contact");
  await expect(stat(page, "views")).toHaveText("4", { timeout: 10_000 });
  await expect(page.getByTestId("visitors-now")).toHaveText(analyticsCopy.visitorsNow(4));

  // The export holds what is shown, one number a row.
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: listCopy.export }).click();
  const csv = readFileSync((await (await download).path())!, "utf8");
  expect(csv).toContain("totals,,views,4\r\n");
  expect(csv).toContain("pages,/about,visitors,2\r\n");

  await pages.getByRole("link", { name: `${analyticsCopy.filterBy(analyticsCopy.filterNames.path)}: /about` }).click();
  await expect(page).toHaveURL(/\?path=%2Fabout$/);
  await expect(page.getByRole("button", { name: analyticsCopy.removeFilter(analyticsCopy.filterNames.path, "/about") })).toBeVisible();
  await expect(stat(page, "visitors")).toHaveText("2");
  await expect(pages.getByRole("row")).toHaveCount(2); // the header and /about

  // The filtered screen, as a shared link would show it, at each width and theme.
  for (const width of [1280, 375]) {
    for (const theme of ["light", "dark"]) {
      await page.setViewportSize({ width, height: 900 });
      await page.evaluate((t) => localStorage.setItem("theme", t), theme);
      await page.reload();
      await expect(stat(page, "visitors")).toHaveText("2");
      await expect(page.locator("html")).toHaveClass(new RegExp(theme === "dark" ? "\\bdark\\b" : "^(?!.*\\bdark\\b)"));
      await page.getByText(analyticsCopy.chart.showTable).click();
      await expect(page.getByTestId("series-table")).toBeVisible();
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      expect(await axeViolations(page), `${width}px ${theme}`).toEqual([]);
    }
  }
  await context.close();
});

test("nothing below the chart moves when its code arrives: a click on Show as table lands", async ({ browser }) => {
  test.setTimeout(60_000);
  const email = `ben+${Date.now().toString(36)}@studio.test`;
  studio.cli("staff", "add", email, "--name", "Ben");
  const context = await browser.newContext({ viewport: { width: 375, height: 800 }, reducedMotion: "reduce" });
  const page = await context.newPage();
  await signIn(page, studio, email, { fromCli: true });
  const chart = await hold(page, "**/assets/analytics-chart.*.js");
  await page.goto(`${studio.base}/admin/analytics`);
  await expect(stat(page, "views")).toBeVisible();
  await chart.waitFor("analytics-chart");
  const summary = page.getByText(analyticsCopy.chart.showTable);
  const before = await summary.evaluate((el) => el.getBoundingClientRect().top + scrollY);
  await chart.release();
  await expect(page.getByTestId("analytics-chart").locator("canvas").first()).toBeVisible();
  expect(await summary.evaluate((el) => el.getBoundingClientRect().top + scrollY)).toBe(before);
  await summary.click();
  await expect(page.getByTestId("series-table")).toBeVisible();
  await context.close();
});
