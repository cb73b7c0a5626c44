/**
 * What the move to Astro islands must keep: forms that work without
 * JavaScript, input made before the islands have loaded (search openings,
 * typed text, submissions, clicks on an island's buttons), the
 * cross-document page fade, pages of static content that ship only the
 * layout's islands and load none of them until used, and server-rendered
 * aria-current.
 */
import { execFileSync } from "node:child_process";
import type { Page } from "@playwright/test";
import { test, expect, holdModules } from "./fixtures";
import { dataDir } from "../playwright.config";
import { contactForm } from "../app/content/contact";
import { headerLabels } from "../app/content/site";
import { searchDialog } from "../app/content/search";
import { formProblems } from "../app/content/forms";
import { searchIndex, searchSite } from "../app/lib/search-index";

/** list reads the main server's store the way staff do, with the studio CLI. */
function list<T>(what: "messages" | "waitlist" | "subscribers"): T[] {
  const out = execFileSync("../bin/studio", [what, "list", "--format", "json", "--data", dataDir!], { encoding: "utf8" });
  return JSON.parse(out) as T[];
}

type StoredMessage = { name: string; email: string; message: string };
const messagesWith = (marker: string) => list<StoredMessage>("messages").filter((m) => m.message === marker);

const uniqueTag = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
const uniqueAddress = (tag: string) => `${uniqueTag(tag)}@example.com`;

/** field is the contact form's input or text area whose label starts with label. */
const field = (page: Page, label: string) => page.getByRole("textbox", { name: new RegExp(`^${label}`) });
const sendButton = (page: Page) => page.getByRole("button", { name: contactForm.submit });

const searchButton = (page: Page) => page.getByRole("banner").getByRole("button", { name: headerLabels.search });
const dialog = (page: Page) => page.getByRole("dialog", { name: searchDialog.title });
const searchInput = (page: Page) => dialog(page).getByRole("combobox", { name: searchDialog.inputLabel });

/** Hydration after the held modules are let through loads them all at once: allow a loaded machine time. */
const hydrationTimeout = 15_000;

/** island is the astro-island element of the component exported as name. */
const island = (page: Page, name: string) => page.locator(`astro-island[component-export="${name}"]`);

/** The islands every page carries (Layout.astro), and only those on pages of static content. */
const layoutIslands = ["ThemeToggle", "MobileMenu", "CopyrightYear", "ThemeChoicePicker", "CookieBanner", "Toaster", "SiteSearch"];

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the contact form posts natively: /contact/sent, and the message is stored", async ({ page }) => {
    const marker = `e2e no-js ${uniqueTag("contact")}`;
    await page.goto("/contact");
    await field(page, "Name").fill("Grace Hopper");
    await field(page, "Email").fill("grace@example.com");
    await field(page, "Message").fill(marker);
    await sendButton(page).click();

    await expect(page).toHaveURL(/\/contact\/sent$/);
    await expect(page.getByRole("heading", { name: contactForm.success.title })).toBeVisible();
    expect(messagesWith(marker)).toEqual([expect.objectContaining({ name: "Grace Hopper", email: "grace@example.com", message: marker })]);
  });

  test("the waitlist form posts natively: /products/saas-2/joined, and the address is stored", async ({ page }) => {
    const address = uniqueAddress("nojs-waitlist");
    await page.goto("/products/saas-2");
    const form = page.locator("#waitlist");
    await form.getByRole("textbox", { name: "Email address" }).fill(address);
    await form.getByRole("button", { name: "Notify Me" }).click();

    await expect(page).toHaveURL(/\/products\/saas-2\/joined$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("You're on the list!");
    const entries = list<{ product_id: string; email: string }>("waitlist").filter((e) => e.email === address);
    expect(entries).toEqual([expect.objectContaining({ product_id: "saas-2", email: address })]);
  });

  test("the newsletter form posts natively: /resources/subscribed, and the address is stored", async ({ page }) => {
    const address = uniqueAddress("nojs-news");
    await page.goto("/resources");
    // A choice could not be kept without JavaScript: the cookie banner does not ask.
    await expect(page.locator("[data-cookie-banner]")).toBeHidden();
    const form = page.getByRole("region", { name: "Get new resources in your inbox" });
    await form.getByRole("textbox", { name: "Email address" }).fill(address);
    await form.getByRole("button", { name: "Subscribe" }).click();

    await expect(page).toHaveURL(/\/resources\/subscribed$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Subscribed!");
    expect(list<{ email: string }>("subscribers").filter((e) => e.email === address)).toHaveLength(1);
  });

  test("a contact post the server rejects lands on /forms/problem/name, with nothing typed in the URL", async ({ page }) => {
    const marker = `e2e no-js problem ${uniqueTag("contact")}`;
    const name = "n".repeat(101);
    const email = uniqueAddress("problem");
    await page.goto("/contact");
    // The input has no maxlength (the rules count code points after trimming, the server decides): 101 characters go in.
    await field(page, "Name").fill(name);
    await expect(field(page, "Name")).toHaveValue(name);
    await field(page, "Email").fill(email);
    await field(page, "Message").fill(marker);
    await sendButton(page).click();

    await expect(page).toHaveURL(/\/forms\/problem\/name$/);
    await expect(page.getByRole("main")).toContainText(formProblems.name!);
    const url = decodeURIComponent(page.url());
    for (const value of [name, email, marker]) expect(url).not.toContain(value);
    expect(new URL(page.url()).search).toBe("");
    expect(messagesWith(marker)).toEqual([]);
  });
});

test.describe("input before the modules have loaded", () => {
  test("search button, then typing: the dialog opens with the text and the first result selected", async ({ page }) => {
    const modules = await holdModules(page);
    await page.goto("/", { waitUntil: "commit" });
    await searchButton(page).click();
    await modules.waitFor("site-search"); // the opening woke the search island, which waits for its module
    await expect(searchButton(page)).toHaveAttribute("aria-busy", "true"); // the click shows as taken
    await page.keyboard.type("aurion");
    await expect(dialog(page)).toHaveCount(0);

    await modules.release();
    await expect(dialog(page)).toBeVisible({ timeout: hydrationTimeout });
    await expect(searchButton(page)).not.toHaveAttribute("aria-busy");
    await expect(searchInput(page)).toHaveValue("aurion");
    await expect(searchInput(page)).toBeFocused();
    const first = dialog(page).getByRole("option").first();
    await expect(first).toHaveAttribute("aria-selected", "true");
    await expect(dialog(page).locator('[role="option"][aria-selected="true"]')).toHaveCount(1);
    const firstId = await first.getAttribute("id");
    expect(firstId).toBeTruthy();
    await expect(searchInput(page)).toHaveAttribute("aria-activedescendant", firstId!);
  });

  test("a category and an order chosen in the resources hub are applied once its island has loaded", async ({ page }) => {
    const modules = await holdModules(page);
    await page.goto("/resources", { waitUntil: "commit" });
    await page.getByLabel("Category").focus(); // as a visitor's Tab or tap does: it wakes the island
    await page.getByLabel("Category").selectOption("podcast");
    await page.getByLabel("Sort", { exact: true }).selectOption("oldest");
    await modules.waitFor("resource-browser");

    await modules.release();
    await expect(page).toHaveURL(/category=podcast/, { timeout: hydrationTimeout });
    await expect(page).toHaveURL(/sort=oldest/);
    await expect(page.getByLabel("Category")).toHaveValue("podcast");
    await expect(page.getByLabel("Sort", { exact: true })).toHaveValue("oldest");
    await expect(page.getByTestId("resource-results").getByTestId("resource-card")).toHaveCount(4);
  });

  test("Ctrl+K, then typing: the dialog opens with the text", async ({ page }) => {
    const modules = await holdModules(page);
    await page.goto("/", { waitUntil: "commit" });
    await expect(searchButton(page)).toBeVisible(); // the page is there to type into
    await page.keyboard.press("Control+k");
    await modules.waitFor("site-search");
    await page.keyboard.type("aurion");
    await expect(dialog(page)).toHaveCount(0);

    await modules.release();
    await expect(dialog(page)).toBeVisible({ timeout: hydrationTimeout });
    await expect(searchInput(page)).toHaveValue("aurion");
    await expect(dialog(page).getByRole("option").first()).toHaveAttribute("aria-selected", "true");
  });

  test("Enter pressed after typing opens the first result", async ({ page }) => {
    const first = searchSite(searchIndex, "aurion")[0];
    expect(first).toBeDefined();
    const modules = await holdModules(page);
    await page.goto("/", { waitUntil: "commit" });
    await searchButton(page).click();
    await modules.waitFor("site-search");
    await page.keyboard.type("aurion");
    await page.keyboard.press("Enter");
    await expect(dialog(page)).toHaveCount(0);
    expect(new URL(page.url()).pathname).toBe("/");

    await modules.release();
    const target = new URL(first!.href, "http://x");
    await page.waitForURL((url) => url.pathname === target.pathname && url.hash === target.hash, { timeout: hydrationTimeout });
    await expect(dialog(page)).toHaveCount(0);
  });

  test("a contact form sent before hydration goes through once", async ({ page }) => {
    const marker = `e2e held ${uniqueTag("contact")}`;
    const modules = await holdModules(page);
    await page.goto("/contact", { waitUntil: "commit" });
    await field(page, "Name").fill("Ada Held");
    await modules.waitFor("contact-form"); // focus in the form woke its island, which waits for its module
    await field(page, "Email").fill("held@example.com");
    await field(page, "Message").fill(marker);
    await sendButton(page).click();

    // Natively (the island never loaded) it lands on /contact/sent; had JavaScript taken it, the confirmation replaces the form.
    await expect(page.getByRole("heading", { name: contactForm.success.title })).toBeVisible();
    await modules.release();
    await expect.poll(() => messagesWith(marker).length).toBe(1);
    await expect(page.getByRole("heading", { name: contactForm.success.title })).toBeVisible();
    expect(messagesWith(marker)).toEqual([expect.objectContaining({ name: "Ada Held", email: "held@example.com" })]);
  });

  test("text typed into the contact form before hydration is kept, and then sent by JavaScript", async ({ page }) => {
    const marker = `e2e typed early ${uniqueTag("contact")}`;
    const modules = await holdModules(page);
    await page.goto("/contact", { waitUntil: "commit" });
    await field(page, "Name").pressSequentially("Early Bird");
    await modules.waitFor("contact-form");
    await field(page, "Email").pressSequentially("early@example.com");
    await field(page, "Message").pressSequentially(marker);
    await expect(island(page, "ContactPanel")).toHaveAttribute("ssr", "");

    await modules.release();
    // Astro drops ssr once it has handed the island to React (hydrateRoot, in a transition); the form turns
    // noValidate only when React has hydrated it and rendered again: then the typed text has been taken over.
    await expect(island(page, "ContactPanel")).not.toHaveAttribute("ssr", { timeout: hydrationTimeout });
    await expect(page.locator('form[action$="/submit-contact"]')).toHaveAttribute("novalidate", "", { timeout: hydrationTimeout });
    await expect(field(page, "Name")).toHaveValue("Early Bird");
    await expect(field(page, "Email")).toHaveValue("early@example.com");
    await expect(field(page, "Message")).toHaveValue(marker);

    await sendButton(page).click();
    const toast = page.getByRole("status").filter({ hasText: contactForm.success.toastTitle });
    await expect(toast).toBeVisible();
    await expect(page.getByRole("heading", { name: contactForm.success.title })).toBeVisible();
    expect(new URL(page.url()).pathname).toBe("/contact");
    expect(messagesWith(marker)).toEqual([expect.objectContaining({ name: "Early Bird", email: "early@example.com" })]);
  });
});

/** revealRecorder makes every new document record whether it was revealed with a view transition. */
async function revealRecorder(page: Page) {
  await page.addInitScript(() => {
    window.addEventListener("pagereveal", (e) => {
      (window as unknown as { __vt: boolean }).__vt = Boolean((e as Event & { viewTransition?: unknown }).viewTransition);
    });
  });
}

async function goToStudioFromHome(page: Page): Promise<boolean> {
  await page.goto("/");
  await expect.poll(() => page.evaluate(() => (window as unknown as { __vt?: boolean }).__vt)).toBe(false); // a first load has none
  await page.getByRole("navigation", { name: headerLabels.mainNav }).getByRole("link", { name: "Studio", exact: true }).click();
  await page.waitForURL(/\/studio$/);
  await expect.poll(() => page.evaluate(() => typeof (window as unknown as { __vt?: boolean }).__vt)).toBe("boolean");
  return page.evaluate(() => (window as unknown as { __vt: boolean }).__vt);
}

test.describe("the page fade, with motion", () => {
  test.use({ contextOptions: { reducedMotion: "no-preference" } });

  test("going to another page runs a cross-document view transition, the main area fading in over 0.3 s", async ({ page }) => {
    await revealRecorder(page);
    expect(await goToStudioFromHome(page)).toBe(true);

    const fadeIn = await page.evaluate(() => {
      const found: { name: string; duration: string }[] = [];
      const visit = (rules: CSSRuleList) => {
        for (const rule of Array.from(rules)) {
          if (rule instanceof CSSStyleRule && rule.selectorText.includes("::view-transition-new(page)")) {
            found.push({ name: rule.style.animationName, duration: rule.style.animationDuration });
          }
          if ("cssRules" in rule && (rule as CSSGroupingRule).cssRules) visit((rule as CSSGroupingRule).cssRules);
        }
      };
      for (const sheet of Array.from(document.styleSheets)) visit(sheet.cssRules);
      return found;
    });
    expect(fadeIn).toContainEqual({ name: "page-in", duration: "0.3s" });
  });
});

test.describe("the page fade, with reduced motion", () => {
  test.use({ contextOptions: { reducedMotion: "reduce" } });

  test("going to another page runs no view transition", async ({ page }) => {
    await revealRecorder(page);
    expect(await goToStudioFromHome(page)).toBe(false);
  });
});

test.describe("pages of static content ship no JavaScript of their own", () => {
  for (const path of ["/about", "/legal/terms"]) {
    test(`${path}: only the layout's islands, no module loads until one is used, and no search dialog until the search is opened`, async ({ page }) => {
      const modules: string[] = [];
      page.on("request", (r) => {
        if (r.resourceType() === "script") modules.push(new URL(r.url()).pathname);
      });
      await page.goto(path, { waitUntil: "networkidle" });

      const islands = await page.locator("astro-island").evaluateAll((els) => els.map((e) => e.getAttribute("component-export") ?? ""));
      expect([...islands].sort()).toEqual([...layoutIslands].sort());
      // The load ran no island: not one script was fetched.
      expect(modules).toEqual([]);
      await expect(page.locator("astro-island[ssr]")).toHaveCount(layoutIslands.length);

      await searchButton(page).click();
      await expect(dialog(page)).toBeVisible();
      expect(modules.filter((u) => u.includes("search-dialog")).length).toBeGreaterThan(0);
    });
  }
});

test.describe("an island hydrates on first use, and what was done meanwhile is not lost", () => {
  test("a click on the theme toggle before its module has loaded switches the theme once it has", async ({ page }) => {
    const modules = await holdModules(page);
    await page.goto("/about", { waitUntil: "commit" });
    const toggle = page.getByRole("button", { name: headerLabels.themeToDark });
    await toggle.click();
    await modules.waitFor("theme-toggle");
    await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
    await expect(toggle).toHaveAttribute("aria-busy", "true"); // the click shows as taken

    await modules.release();
    await expect(page.locator("html")).toHaveClass(/\bdark\b/, { timeout: hydrationTimeout });
    await expect(island(page, "ThemeToggle")).not.toHaveAttribute("ssr");
    // Once, not twice: the held click was made again, and only once.
    await expect(page.getByRole("button", { name: headerLabels.themeToLight })).toBeVisible();
    await expect(page.getByRole("button", { name: headerLabels.themeToLight })).not.toHaveAttribute("aria-busy");
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("dark");
  });

  test("a badge hovered before its module has loaded shows its tooltip once it has", async ({ page }) => {
    const modules = await holdModules(page);
    await page.goto("/studio/venture-portfolio", { waitUntil: "commit" });
    const badge = page.locator("[aria-describedby]").first();
    await badge.hover();
    await modules.waitFor("status-badge");
    await expect(page.getByRole("tooltip")).toHaveCount(0);

    await modules.release();
    await expect(page.getByRole("tooltip")).toBeVisible({ timeout: hydrationTimeout });
  });

  test("a mobile menu tapped before its module has loaded opens once it has", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    const modules = await holdModules(page);
    await page.goto("/about", { waitUntil: "commit" });
    await page.getByRole("button", { name: headerLabels.openMenu }).click();
    await modules.waitFor("mobile-menu");

    await modules.release();
    await expect(page.getByRole("button", { name: headerLabels.closeMenu })).toHaveAttribute("aria-expanded", "true", { timeout: hydrationTimeout });
    await expect(page.getByRole("navigation", { name: headerLabels.mainNav }).getByRole("link", { name: "Studio", exact: true })).toBeVisible();
  });
});

test.describe("the cookie banner, before its module has loaded", () => {
  test.use({ consented: false });

  test("is in the page at once, takes a click on Accept, and is never shown again", async ({ page }) => {
    const modules = await holdModules(page);
    await page.goto("/about", { waitUntil: "commit" });
    const banner = page.getByRole("region", { name: "Cookie consent" });
    await expect(banner).toBeVisible();
    await banner.getByRole("button", { name: "Accept" }).click();
    await modules.waitFor("cookie-banner");
    await expect(banner).toBeVisible();

    await modules.release();
    await expect(banner).toHaveCount(0, { timeout: hydrationTimeout });
    expect(await page.evaluate(() => localStorage.getItem("cookie-consent"))).toBe("accepted");

    // The next page hides it before first paint: never seen, even with no module loaded.
    const held = await holdModules(page);
    await page.goto("/legal/terms");
    await expect(page.locator("[data-cookie-banner]")).toBeHidden();
    expect(held.urls()).toEqual([]);
  });
});

test("aria-current is in the HTML as served", async ({ request }) => {
  const response = await request.get("/studio");
  expect(response.ok()).toBe(true);
  const html = await response.text();
  const header = html.match(/<header[\s\S]*?<\/header>/)?.[0] ?? "";
  const nav = header.match(new RegExp(`<nav[^>]*aria-label="${headerLabels.mainNav}"[^>]*>[\\s\\S]*?</nav>`))?.[0] ?? "";
  const links = [...nav.matchAll(/<a\b[^>]*>/g)].map((m) => m[0]);
  expect(links.length).toBeGreaterThan(1);
  const studio = links.filter((a) => /\bhref="\/studio"/.test(a));
  expect(studio).toHaveLength(1);
  expect(studio[0]).toMatch(/\baria-current="page"/);
  // Only the current page's link carries it.
  expect(links.filter((a) => /\baria-current=/.test(a))).toEqual(studio);
});

test("a page is prefetched when a link to it is hovered, and the click is served from that prefetch", async ({ page }) => {
  const prefetches: string[] = [];
  page.on("request", (r) => {
    if (r.headers()["sec-purpose"]?.startsWith("prefetch")) prefetches.push(new URL(r.url()).pathname);
  });
  await page.goto("/");
  const about = page.getByRole("navigation", { name: headerLabels.mainNav }).getByRole("link", { name: "About" });
  await about.hover();
  await expect.poll(() => prefetches).toContain("/about");
  await about.click();
  await expect(page).toHaveURL(/\/about$/);
  // The navigation used the prefetched response (Chromium reports it in the navigation timing).
  // (deliveryType is newer than TypeScript's DOM types.)
  expect(await page.evaluate(() => (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming & { deliveryType: string }).deliveryType)).toBe(
    "navigational-prefetch",
  );
});
