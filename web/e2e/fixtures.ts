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

/**
 * holdFunction holds the calls of a backend function until release() lets
 * them (and later ones) through: a test sees the form's busy state for as
 * long as it needs, on a machine however busy.
 */
export async function holdFunction(page: Page, name: string) {
  const held: Route[] = [];
  let released = false;
  await page.route(`**/functions/v1/${name}`, async (route) => {
    if (released) await route.continue();
    else held.push(route);
  });
  return {
    release: async () => {
      released = true;
      await Promise.all(held.splice(0).map((r) => r.continue()));
    },
  };
}

/**
 * holdModules holds every JavaScript module request (the islands, their
 * renderer, the page scripts) until release() lets them all through; later
 * requests go through at once. urls() lists what is being held.
 */
export async function holdModules(page: Page) {
  const held: Route[] = [];
  let released = false;
  await page.route("**/assets/*.js", async (route) => {
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
