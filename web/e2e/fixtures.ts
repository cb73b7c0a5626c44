import { test as base, expect, type Locator, type Page, type Route } from "@playwright/test";

/**
 * hydrated brings every island of the page that hydrates on first use
 * (client:interaction) to life, as a visitor's first touch of each would, and
 * waits until they all run: Astro removes the ssr attribute of an
 * <astro-island> once its React root is running. For tests about what an
 * island does, not about its first moments (islands.spec.ts covers those).
 * The footer's islands (client:visible) hydrate when scrolled to.
 */
export async function hydrated(page: Page): Promise<void> {
  await expect(page.getByTestId("theme-toggle-slot").getByRole("button")).toBeVisible();
  await page.locator('astro-island[ssr][client="interaction"]').evaluateAll((islands) => {
    for (const island of islands) island.dispatchEvent(new FocusEvent("focusin"));
  });
  await expect(page.locator('astro-island[ssr][client="interaction"]')).toHaveCount(0, { timeout: 15_000 });
}

/**
 * scrolledTo scrolls locator into view as a visitor would reach it, and
 * waits until it stays in place: a jump over sections never seen leaves
 * them at their size guess (content-visibility: auto, app.css), and those
 * near the viewport take their real size a few frames later, moving what
 * is in view. Playwright's own scroll before a click counts two steady
 * frames as stable, which may be just before that move.
 */
export async function scrolledTo(locator: Locator): Promise<void> {
  await expect
    .poll(async () => {
      await locator.scrollIntoViewIfNeeded();
      return locator.evaluate(async (el) => {
        const places = new Set<string>();
        for (let i = 0; i < 6; i++) {
          const r = el.getBoundingClientRect();
          places.add(`${r.x},${r.y}`);
          await new Promise((done) => requestAnimationFrame(done));
        }
        return places.size === 1;
      });
    })
    .toBe(true);
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
 * hold holds every request matching pattern until release() lets them (and
 * later ones) through: a test sees what a page does while they wait, for as
 * long as it needs, on a machine however busy. urls() lists what is held.
 */
export async function hold(page: Page, pattern: string) {
  const held: Route[] = [];
  let released = false;
  await page.route(pattern, async (route) => {
    if (released) await route.continue().catch(() => {});
    else held.push(route);
  });
  return {
    urls: () => held.map((r) => new URL(r.request().url()).pathname),
    /** waitFor waits until a request whose path contains part is being held. */
    waitFor: async (part: string) => {
      await expect.poll(() => held.some((r) => r.request().url().includes(part)), { message: `a held request for ${part}` }).toBe(true);
    },
    release: async () => {
      released = true;
      // A request of a page that has since been left cannot be continued any more.
      await Promise.all(held.splice(0).map((r) => r.continue().catch(() => {})));
    },
  };
}

/** holdFunction holds the calls of a backend function (hold). */
export const holdFunction = (page: Page, name: string) => hold(page, `**/functions/v1/${name}`);

/** holdModules holds every JavaScript module request: the islands, their renderer, the page scripts (hold). */
export const holdModules = (page: Page) => hold(page, "**/assets/*.js");
