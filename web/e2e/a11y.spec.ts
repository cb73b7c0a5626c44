import AxeBuilder from "@axe-core/playwright";
import { test, expect, hydrated } from "./fixtures";
import { prerenderPaths } from "../app/content/site-map";

/** Every prerendered page (the not-found pages through real unknown paths), at both widths, in both themes. */
const paths = prerenderPaths()
  .filter((p) => !/\.\w+$/.test(p)) // pages only, not feeds
  .map((p) => (p.endsWith("/404") ? p.replace(/404$/, "no-such-page") : p));

for (const width of [1280, 375]) {
  for (const theme of ["light", "dark"] as const) {
    test.describe(`axe at ${width}px, ${theme}`, () => {
      test.use({ viewport: { width, height: 800 } });
      for (const path of paths) {
        test(`${path} has no violations`, async ({ page }) => {
          await page.emulateMedia({ reducedMotion: "reduce" });
          await page.addInitScript((t) => localStorage.setItem("theme", t), theme);
          await page.goto(path);
          await hydrated(page);
          const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]).analyze();
          const summary = results.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).slice(0, 5).join(" | ")}`);
          expect(summary, `${path} at ${width}px ${theme}`).toEqual([]);
        });
      }
    });
  }
}
