import { test, expect, hydrated } from "./fixtures";

const nav = [
  { label: "Home", href: "/" },
  { label: "Studio", href: "/studio" },
  { label: "Products", href: "/products" },
  { label: "Resources", href: "/resources" },
  { label: "About", href: "/about" },
  { label: "Contact", href: "/contact" },
];

test.describe("header navigation", () => {
  for (const current of nav) {
    test(`on ${current.href}, the links are in order and only ${current.label} is current`, async ({ page }) => {
      await page.goto(current.href);
      const links = page.getByRole("navigation", { name: "Main" }).getByRole("link");
      await expect(links).toHaveText(nav.map((n) => n.label));
      for (const [i, item] of nav.entries()) {
        const link = links.nth(i);
        await expect(link).toHaveAttribute("href", item.href);
        if (item.href === current.href) await expect(link).toHaveAttribute("aria-current", "page");
        else await expect(link).not.toHaveAttribute("aria-current", /.*/);
      }
    });
  }

  test("the current link is visibly highlighted", async ({ page }) => {
    await page.goto("/studio");
    const nav = page.getByRole("navigation", { name: "Main" });
    const current = await nav.getByRole("link", { name: "Studio" }).evaluate((el) => getComputedStyle(el).backgroundColor);
    const other = await nav.getByRole("link", { name: "About" }).evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(current).not.toBe(other);
  });

  test("Get Started goes to /contact and search has an accessible name", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("banner").getByRole("link", { name: "Get Started" })).toHaveAttribute("href", "/contact");
    await expect(page.getByRole("button", { name: "Search the site" })).toBeVisible();
  });

  test("going to another page marks its link as current (the fade is tested in islands.spec.ts)", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "About" }).click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "About" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home" })).not.toHaveAttribute("aria-current", /.*/);
  });
});

test.describe("theme", () => {
  test("light by default; the toggle switches to dark and back, and the choice persists", async ({ page }) => {
    await page.goto("/");
    await hydrated(page);
    const html = page.locator("html");
    await expect(html).not.toHaveClass(/dark/);
    await page.getByRole("button", { name: "Switch to dark theme" }).click();
    await expect(html).toHaveClass(/dark/);
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("dark");
    await page.reload();
    await expect(html).toHaveClass(/dark/);
    await hydrated(page);
    await page.getByRole("button", { name: "Switch to light theme" }).click();
    await expect(html).not.toHaveClass(/dark/);
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("light");
  });

  test("a stored dark theme is applied before any app script runs (no light flash)", async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem("theme", "dark"));
    // Without the app's JavaScript only the inline head script can set the theme.
    await page.route("**/assets/*.js", (route) => route.abort());
    await page.goto("/");
    await expect(page.locator("html")).toHaveClass(/dark/);
    const bg = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    expect(bg).toBe("oklch(0.129 0.042 264.695)"); // slate-950
  });

  test("'system' follows prefers-color-scheme live", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto("/");
    await page.getByRole("contentinfo").scrollIntoViewIfNeeded(); // the theme choice hydrates when scrolled to
    await page.getByRole("radio", { name: "System" }).check({ force: true });
    // Chosen perhaps before the island ran: it takes the choice as it wakes.
    await expect.poll(() => page.evaluate(() => localStorage.getItem("theme"))).toBe("system");
    const html = page.locator("html");
    await expect(html).not.toHaveClass(/dark/);
    await page.emulateMedia({ colorScheme: "dark" });
    await expect(html).toHaveClass(/dark/);
    await page.emulateMedia({ colorScheme: "light" });
    await expect(html).not.toHaveClass(/dark/);
  });

  test("'system' follows prefers-color-scheme live with no island running", async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem("theme", "system"));
    await page.route("**/assets/*.js", (route) => route.abort());
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto("/");
    const html = page.locator("html");
    await expect(html).not.toHaveClass(/dark/);
    await page.emulateMedia({ colorScheme: "dark" });
    await expect(html).toHaveClass(/dark/);
    await expect(page.getByRole("button", { name: "Switch to light theme" })).toBeVisible();
  });

  test("the toggle is in the page before any script runs, and hydration shifts nothing in the header", async ({ page }) => {
    await page.route("**/assets/*.js", (route) => route.abort());
    await page.goto("/");
    const slot = page.getByTestId("theme-toggle-slot");
    await expect(slot.getByRole("button", { name: "Switch to dark theme" })).toBeVisible();
    const before = await slot.boundingBox();
    const searchBefore = await page.getByRole("button", { name: "Search the site" }).boundingBox();
    await page.unroute("**/assets/*.js");
    await page.reload();
    await hydrated(page);
    expect(await slot.boundingBox()).toEqual(before);
    expect(await page.getByRole("button", { name: "Search the site" }).boundingBox()).toEqual(searchBefore);
  });
});

test.describe("mobile header (375 px)", () => {
  test.use({ viewport: { width: 375, height: 667 } });

  test("the Studio/Products switch marks Products only under /products", async ({ page }) => {
    const section = page.getByRole("navigation", { name: "Site section" });
    for (const [path, active] of [["/", "Studio"], ["/about", "Studio"], ["/products", "Products"], ["/products/aurion", "Products"]] as const) {
      await page.goto(path);
      await expect(section.getByRole("link", { name: active })).toHaveAttribute("aria-current", "true");
      const other = active === "Studio" ? "Products" : "Studio";
      await expect(section.getByRole("link", { name: other })).not.toHaveAttribute("aria-current", /.*/);
    }
    await expect(section.getByRole("link", { name: "Studio" })).toHaveAttribute("href", "/studio");
    await expect(section.getByRole("link", { name: "Products" })).toHaveAttribute("href", "/products");
  });

  test("the menu opens, closes on navigation and on Escape", async ({ page }) => {
    await page.goto("/");
    await hydrated(page);
    const button = page.getByRole("button", { name: "Open menu" });
    await expect(button).toHaveAttribute("aria-expanded", "false");
    const menuId = await button.getAttribute("aria-controls");
    const menu = page.locator(`[id="${menuId}"]`);
    await expect(menu).toBeHidden();

    await button.click();
    await expect(page.getByRole("button", { name: "Close menu" })).toHaveAttribute("aria-expanded", "true");
    await expect(menu).toBeVisible();
    await menu.getByRole("link", { name: "Resources" }).click();
    // Another page: a new document, whose menu starts closed.
    await expect(page).toHaveURL(/\/resources$/);
    await hydrated(page);
    const again = page.getByRole("button", { name: "Open menu" });
    await expect(again).toHaveAttribute("aria-expanded", "false");
    const newMenu = page.locator(`[id="${await again.getAttribute("aria-controls")}"]`);
    await expect(newMenu).toBeHidden();

    await again.click();
    await expect(newMenu).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(newMenu).toBeHidden();
    await expect(page.getByRole("button", { name: "Open menu" })).toBeFocused();
  });
});

test.describe("cookie banner", () => {
  test.use({ consented: false });

  for (const choice of ["Accept", "Decline"] as const) {
    test(`${choice} hides it for good`, async ({ page }) => {
      await page.goto("/");
      const banner = page.getByRole("region", { name: "Cookie consent" });
      await expect(banner).toBeVisible();
      await expect(banner.getByRole("link", { name: "Cookie Policy" })).toHaveAttribute("href", "/legal/cookies");
      await banner.getByRole("button", { name: choice }).click();
      await expect(banner).toBeHidden();
      expect(await page.evaluate(() => localStorage.getItem("cookie-consent"))).toBe(choice === "Accept" ? "accepted" : "declined");
      await page.reload();
      await hydrated(page);
      await expect(banner).toBeHidden();
      await page.goto("/about");
      await hydrated(page);
      await expect(banner).toBeHidden();
    });
  }

  test("on a phone it does not cover the page's main actions", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 667 });
    await page.goto("/");
    const banner = page.getByRole("region", { name: "Cookie consent" });
    await expect(banner).toBeVisible();
    const b = (await banner.boundingBox())!;
    for (const name of ["Explore Services", "Our Products"]) {
      const box = (await page.getByRole("link", { name, exact: true }).first().boundingBox())!;
      expect(box.y + box.height, `${name} is above the banner`).toBeLessThanOrEqual(b.y);
    }
    // Scrolled to the end, the banner sits below the footer instead of over it. Sections below the
    // first are laid out as they near the viewport (content-visibility), which moves the end: scroll
    // until it stays, as a visitor pressing End does.
    let height = -1;
    await expect
      .poll(async () => {
        const now = await page.evaluate(async () => {
          window.scrollTo({ top: document.documentElement.scrollHeight, behavior: "instant" });
          await new Promise((frame) => requestAnimationFrame(() => requestAnimationFrame(frame)));
          return document.documentElement.scrollHeight;
        });
        const settled = now === height;
        height = now;
        return settled;
      })
      .toBe(true);
    const footerLink = page.getByRole("contentinfo").getByRole("link", { name: "Affiliate Disclosure" });
    const link = (await footerLink.boundingBox())!;
    const after = (await banner.boundingBox())!;
    expect(link.y + link.height).toBeLessThanOrEqual(after.y);
  });
});

test.describe("footer", () => {
  const groups = {
    Studio: [
      ["How We Build", "/studio"],
      ["Service Packages", "/studio/service-packages"],
      ["Venture Portfolio", "/studio/venture-portfolio"],
      ["Success Stories", "/studio/success-stories"],
    ],
    Company: [
      ["Products", "/products"],
      ["Resources", "/resources"],
      ["About", "/about"],
      ["Contact", "/contact"],
    ],
    Legal: [
      ["Terms of Service", "/legal/terms"],
      ["Privacy Policy", "/legal/privacy"],
      ["Cookie Policy", "/legal/cookies"],
      ["Affiliate Disclosure", "/legal/affiliate-disclosure"],
    ],
  };

  test("has the three link groups of the requirements", async ({ page }) => {
    await page.goto("/");
    for (const [group, links] of Object.entries(groups)) {
      const nav = page.getByRole("contentinfo").getByRole("navigation", { name: group });
      await expect(nav.getByRole("link")).toHaveText(links.map(([label]) => label!));
      for (const [i, [, href]] of links.entries()) await expect(nav.getByRole("link").nth(i)).toHaveAttribute("href", href!);
    }
  });

  test("shows the current year, even when the build is older", async ({ page }) => {
    await page.clock.setFixedTime(new Date("2031-03-04T10:00:00Z"));
    await page.goto("/");
    await page.getByTestId("copyright").scrollIntoViewIfNeeded(); // it hydrates when scrolled to
    await expect(page.getByTestId("copyright")).toContainText("© 2031");
  });
});

test.describe("404", () => {
  test("unknown paths get the Page Not Found page with status 404", async ({ page }) => {
    const response = await page.goto("/no-such-page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page Not Found");
    await expect(page.getByText("The page you're looking for doesn't exist or has been moved.")).toBeVisible();
    const home = page.getByRole("link", { name: "Return to Home" });
    await expect(home).toHaveAttribute("href", "/");
    await hydrated(page);
    await home.click();
    await expect(page).toHaveURL(/\/$/);
  });
});
