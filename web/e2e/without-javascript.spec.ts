/**
 * What a visitor without JavaScript sees: nothing that only a script could
 * make work or finish is shown (Tailwind's noscript: variant, @media
 * (scripting: none)). The forms, which work without JavaScript, are in
 * islands.spec.ts.
 */
import { test, expect } from "./fixtures";
import { consoleShell } from "../app/content/console";

test.use({ javaScriptEnabled: false });

test("/admin says the console needs JavaScript, and not that it is loading", async ({ page }) => {
  await page.goto("/admin");
  // Playwright's text locators leave <noscript> out: the paragraph is found by its place.
  const noScript = page.locator("noscript > p");
  await expect(noScript).toHaveText(consoleShell.noScript);
  await expect(noScript).toBeVisible();
  await expect(page.getByText(consoleShell.loading)).toBeAttached();
  await expect(page.getByText(consoleShell.loading)).toBeHidden();
  await expect(page.getByRole("status")).toHaveCount(0);
});
