import AxeBuilder from "@axe-core/playwright";
import { test, expect, hydrated } from "./fixtures";
import { formOutcomePaths, prerenderPaths } from "../app/content/site-map";

/** Every prerendered page (the not-found pages through real unknown paths). */
const paths = prerenderPaths()
  .filter((p) => !/\.\w+$/.test(p)) // pages only, not feeds
  .map((p) => (p.endsWith("/404") ? p.replace(/404$/, "no-such-page") : p))
  .concat(formOutcomePaths().filter((p) => !p.startsWith("/forms/problem/") || p.endsWith("/name"))); // one problem page stands for all

const tags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

test.describe("axe at 1280 and 375 px, light and dark", () => {
  for (const path of paths) {
    test(`${path} has no violations`, async ({ page }) => {
      test.setTimeout(120_000); // four page loads and four axe runs
      const problems: string[] = [];
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 800 });
        for (const theme of ["light", "dark"]) {
          await page.addInitScript((t) => localStorage.setItem("theme", t), theme);
          await page.goto(path);
          await hydrated(page);
          const { violations } = await new AxeBuilder({ page }).withTags(tags).analyze();
          for (const v of violations) {
            problems.push(`${width}px ${theme}: ${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).slice(0, 5).join(" | ")}`);
          }
        }
      }
      expect(problems).toEqual([]);
    });
  }
});
