import { test as base, expect, type Page } from "@playwright/test";

/**
 * hydrated waits until the page's islands have hydrated: Astro removes the
 * ssr attribute of an <astro-island> once its React root is running. (The
 * mobile menu, client:media, hydrates only under 768 px, and is not waited
 * for on wider screens.)
 */
export async function hydrated(page: Page): Promise<void> {
  // requestIdleCallback (client:idle) waits for an idle moment, which a loaded test machine may not have soon.
  await expect(page.locator('astro-island[ssr]:not([client="media"])')).toHaveCount(0, { timeout: 15_000 });
  await expect(page.getByTestId("theme-toggle-slot").getByRole("button")).toBeVisible();
}

/**
 * test starts every page with the cookie choice already made, so the banner
 * stays out of the way; the cookie-banner tests use a fresh context instead.
 */
export const test = base.extend<{ consented: boolean }>({
  consented: [true, { option: true }],
  page: async ({ page, consented }, use) => {
    if (consented) {
      await page.addInitScript(() => {
        if (!localStorage.getItem("cookie-consent")) localStorage.setItem("cookie-consent", "declined");
      });
    }
    await use(page);
  },
});

export { expect };

/**
 * slowFunction holds each call of a backend function for a moment before it
 * reaches the server, so a test can see the form's busy state however fast
 * the real server answers.
 */
export async function slowFunction(page: Page, name: string, ms = 1000): Promise<void> {
  await page.route(`**/functions/v1/${name}`, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  });
}
