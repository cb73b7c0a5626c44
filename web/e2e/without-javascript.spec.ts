/**
 * What a visitor without JavaScript sees: nothing that only a script could
 * make work or finish is shown (Tailwind's noscript: variant, @media
 * (scripting: none)). The forms, which work without JavaScript, are in
 * islands.spec.ts.
 */
import { test, expect } from "./fixtures";
import { consoleShell } from "../app/content/console";
import { themeChoiceLabels } from "../app/content/site";

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

test("the header's theme toggle and the footer's theme choice are not shown", async ({ page }) => {
  await page.goto("/");
  const toggleSlot = page.getByTestId("theme-toggle-slot");
  await expect(toggleSlot).toBeAttached();
  await expect(toggleSlot).toBeHidden();
  await expect(page.getByRole("button", { name: /theme/i })).toHaveCount(0);

  const footer = page.getByRole("contentinfo");
  await expect(footer.locator("fieldset")).toBeAttached();
  // Hidden from assistive technology too: no empty "Theme" group to land on.
  await expect(footer.getByRole("group", { name: themeChoiceLabels.legend })).toHaveCount(0);
});
