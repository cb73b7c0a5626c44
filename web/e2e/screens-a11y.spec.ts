import AxeBuilder from "@axe-core/playwright";
import { test, expect, hydrated } from "./fixtures";

/** The screens of issue 3, checked by axe in both themes: WCAG 2.1 A and AA (contrast included) and best practices (heading order, landmarks). */
const screens = [
  "/studio",
  "/studio/service-packages",
  "/studio/venture-portfolio",
  "/studio/success-stories",
  "/products",
  "/products/aurion",
  "/products/saas-2",
  "/products/datasync",
  "/about",
  "/legal/terms",
  "/legal/privacy",
  "/legal/cookies",
  "/legal/affiliate-disclosure",
];

// @axe-core/playwright types its page with the hoisted playwright-core (a newer
// version than @playwright/test's); the runtime API it uses is the same.
type AxePage = ConstructorParameters<typeof AxeBuilder>[0]["page"];

for (const theme of ["light", "dark"] as const) {
  test.describe(`axe, ${theme} theme`, () => {
    for (const path of screens) {
      test(path, async ({ page }) => {
        await page.addInitScript((t) => localStorage.setItem("theme", t), theme);
        await page.emulateMedia({ reducedMotion: "reduce" });
        await page.goto(path);
        await hydrated(page);
        const results = await new AxeBuilder({ page: page as unknown as AxePage }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
        const found = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
        expect(found).toEqual([]);
      });
    }
  });
}
