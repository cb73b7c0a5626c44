import { test, expect, hydrated } from "./fixtures";
import { axeViolations, wcagTags } from "./axe";
import { formOutcomePaths, prerenderPaths } from "../app/content/site-map";

/** Every prerendered page (the not-found pages through real unknown paths). */
const paths = prerenderPaths()
  .filter((p) => !/\.\w+$/.test(p)) // pages only, not feeds
  .map((p) => (p.endsWith("/404") ? p.replace(/404$/, "no-such-page") : p))
  .concat(formOutcomePaths().filter((p) => !p.startsWith("/forms/problem/") || p.endsWith("/name"))); // one problem page stands for all

/**
 * The theme as a visitor's choice in another tab sets it: the stored choice and a storage event,
 * which the page's theme script (lib/theme.ts) applies at once. One load serves the four looks.
 */
const setTheme = (theme: string) => {
  localStorage.setItem("theme", theme);
  dispatchEvent(new StorageEvent("storage", { key: "theme" }));
};

/**
 * A theme changes colours only (the same document, other CSS): in the
 * dark looks only the rules of colour are run again.
 */
const colourRules = ["color-contrast", "link-in-text-block"];

test.describe("axe at 1280 and 375 px, light and dark", () => {
  for (const path of paths) {
    test(`${path} has no violations`, async ({ page }) => {
      test.setTimeout(90_000); // four axe runs
      const problems: string[] = [];
      await page.goto(path);
      await hydrated(page);
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 800 });
        for (const theme of ["light", "dark"]) {
          await page.evaluate(setTheme, theme);
          await expect(page.locator("html")).toHaveClass(theme === "dark" ? /\bdark\b/ : /^(?!.*\bdark\b)/);
          // The new look painted (twice since the change), and its colour transitions over, before it is measured.
          await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
          await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => {}))));
          const found = await axeViolations(page, { runOnly: theme === "light" ? { type: "tag", values: wcagTags } : { type: "rule", values: colourRules } });
          problems.push(...found.map((v) => `${width}px ${theme}: ${v}`));
        }
      }
      expect(problems).toEqual([]);
    });
  }
});
