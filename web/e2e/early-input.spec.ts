/**
 * Nothing typed or chosen before an island runs is lost: the island wakes on
 * any use of its form controls (typing, pasting, a select changed without
 * focus or pointer, the browser restoring a changed form on Back), and its
 * first render takes what they show as its state. Every test holds the
 * islands' modules back until the input is made.
 */
import { execFileSync } from "node:child_process";
import type { Page } from "@playwright/test";
import { test, expect, holdModules } from "./fixtures";
import { dataDir } from "../playwright.config";
import { contactForm } from "../app/content/contact";
import { resources } from "../app/content/resources";
import { applyResourceQuery, DEFAULT_QUERY, type ResourceQuery } from "../app/lib/resource-list";

const hydrationTimeout = 15_000;

const search = (page: Page) => page.getByRole("searchbox", { name: "Search resources" });
const category = (page: Page) => page.getByLabel("Category");
const sort = (page: Page) => page.getByLabel("Sort", { exact: true });
const cards = (page: Page) => page.getByTestId("resource-results").getByTestId("resource-card");
/** found is how many cards the hub shows for a query (the first page at most). */
const found = (query: Partial<ResourceQuery>) => Math.min(6, applyResourceQuery(resources, { ...DEFAULT_QUERY, ...query }).length);

/** running waits until Astro has handed the island to React (it drops ssr then). */
const running = (page: Page, name: string) =>
  expect(page.locator(`astro-island[component-export="${name}"]`)).not.toHaveAttribute("ssr", { timeout: hydrationTimeout });

function stored<T>(what: "messages" | "subscribers" | "waitlist"): T[] {
  const out = execFileSync("../bin/studio", [what, "list", "--format", "json", "--data", dataDir!], { encoding: "utf8" });
  return JSON.parse(out) as T[];
}

const unique = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

test.describe("the resource hub, before its island has run", () => {
  test("typed text is kept and then searched like any search (URL q=)", async ({ page }) => {
    const modules = await holdModules(page);
    await page.goto("/resources", { waitUntil: "commit" });
    await search(page).click();
    await search(page).pressSequentially("playbook");
    await modules.waitFor("resource-browser");

    await modules.release();
    await expect(page).toHaveURL(/[?&]q=playbook(&|$)/, { timeout: hydrationTimeout });
    await expect(search(page)).toHaveValue("playbook");
    await expect(cards(page)).toHaveCount(found({ q: "playbook" }));
  });

  test("pasted text is kept and then searched", async ({ page }) => {
    const modules = await holdModules(page);
    await page.goto("/resources", { waitUntil: "commit" });
    await search(page).focus();
    await page.keyboard.insertText("due diligence"); // as a paste: one input event, no key
    await modules.waitFor("resource-browser");

    await modules.release();
    await expect(page).toHaveURL(/[?&]q=due\+diligence(&|$)/, { timeout: hydrationTimeout });
    await expect(search(page)).toHaveValue("due diligence");
    await expect(cards(page)).toHaveCount(found({ q: "due diligence" }));
  });

  test("a category chosen without focus or pointer (selectOption) wakes the island and is applied", async ({ page }) => {
    const modules = await holdModules(page);
    await page.goto("/resources", { waitUntil: "commit" });
    await category(page).selectOption("podcast");
    await modules.waitFor("resource-browser"); // the change alone woke it
    expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe("SELECT");

    await modules.release();
    await expect(page).toHaveURL(/[?&]category=podcast(&|$)/, { timeout: hydrationTimeout });
    await expect(category(page)).toHaveValue("podcast");
    await expect(cards(page)).toHaveCount(found({ category: "podcast" }));
  });

  test("a form the browser restores on Back wakes the island, which applies it", async ({ page }) => {
    const first = await holdModules(page);
    await page.goto("/resources", { waitUntil: "commit" });
    await category(page).selectOption("podcast");
    await sort(page).selectOption("oldest");
    await first.waitFor("resource-browser");
    // Leave before the island has run: nothing reached the URL.
    expect(new URL(page.url()).search).toBe("");
    await page.goto("/about");

    const modules = await holdModules(page);
    await page.goBack({ waitUntil: "commit" });
    // A new document (not one kept in the back/forward cache), into which the browser put the selects back, without
    // an event. (Not the search text: the browser restores no field marked autocomplete=off.)
    await expect(category(page)).toHaveValue("podcast");
    await expect(sort(page)).toHaveValue("oldest");
    expect(await page.evaluate(() => (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).type)).toBe("back_forward");
    await modules.waitFor("resource-browser");

    await modules.release();
    await expect(page).toHaveURL(/[?&]category=podcast(&|$)/, { timeout: hydrationTimeout });
    await expect(page).toHaveURL(/[?&]sort=oldest(&|$)/);
    await expect(cards(page)).toHaveCount(found({ category: "podcast", sort: "oldest" }));
  });
});

test.describe("the forms, before their islands have run", () => {
  test("an address typed into the waitlist and one pasted into the newsletter are what JavaScript sends", async ({ page }) => {
    for (const { path, island, form, button, done, store, how } of [
      {
        path: "/products/saas-3",
        island: "WaitlistForm",
        form: (p: Page) => p.locator("#waitlist"),
        button: "Notify Me",
        done: "You're on the list!",
        store: "waitlist" as const,
        how: "type",
      },
      {
        path: "/resources",
        island: "NewsletterSignup",
        form: (p: Page) => p.getByRole("region", { name: "Get new resources in your inbox" }),
        button: "Subscribe",
        done: "Subscribed!",
        store: "subscribers" as const,
        how: "paste",
      },
    ]) {
      const address = `${unique(island.toLowerCase())}@example.com`;
      const modules = await holdModules(page);
      await page.goto(path, { waitUntil: "commit" });
      const field = form(page).getByRole("textbox", { name: "Email address" });
      await field.focus();
      if (how === "type") await field.pressSequentially(address);
      else await page.keyboard.insertText(address);
      await modules.waitFor(island === "WaitlistForm" ? "waitlist-form" : "newsletter-signup");

      await modules.release();
      await running(page, island);
      await expect(field).toHaveValue(address);
      await form(page).getByRole("button", { name: button }).click();
      // JavaScript sent it (natively, the page would change): the toast, the field cleared.
      await expect(page.getByRole("status").filter({ hasText: done }).last()).toBeVisible();
      await expect(field).toHaveValue("");
      expect(new URL(page.url()).pathname).toBe(path);
      expect(stored<{ email: string }>(store).filter((e) => e.email === address)).toHaveLength(1);
      await page.unrouteAll({ behavior: "ignoreErrors" });
    }
  });

  test("a contact form the browser restores on Back is the form's state once its island runs", async ({ page }) => {
    const marker = `e2e restored ${unique("contact")}`;
    const first = await holdModules(page);
    await page.goto("/contact", { waitUntil: "commit" });
    await page.getByRole("textbox", { name: /^Name/ }).fill("Restored Name");
    await first.waitFor("contact-form");
    await page.goto("/about");

    const modules = await holdModules(page);
    await page.goBack({ waitUntil: "commit" });
    await expect(page.getByRole("textbox", { name: /^Name/ })).toHaveValue("Restored Name");
    await modules.waitFor("contact-form"); // the restored field woke the island

    await modules.release();
    await expect(page.locator('form[action$="/submit-contact"]')).toHaveAttribute("novalidate", "", { timeout: hydrationTimeout });
    await page.getByRole("textbox", { name: /^Email/ }).fill("restored@example.com");
    await page.getByRole("textbox", { name: /^Message/ }).fill(marker);
    await page.getByRole("button", { name: contactForm.submit }).click();
    await expect(page.getByRole("status").filter({ hasText: contactForm.success.toastTitle })).toBeVisible();
    expect(new URL(page.url()).pathname).toBe("/contact");
    expect(stored<{ name: string; message: string }>("messages").filter((m) => m.message === marker)).toEqual([
      expect.objectContaining({ name: "Restored Name" }),
    ]);
  });
});

/**
 * The islands' scripts arrive while the visitor is typing (issue 30): every
 * character stays, in the field and in the island's state (one more key
 * after the island runs makes React render the field from its state). Each
 * form is tried on several fresh pages, with the scripts let through after
 * the first few keys and with nothing held at all, so that the takeover
 * falls at different moments of the typing.
 */
test.describe("typing while an island wakes up loses nothing", () => {
  const text = "Early Typist keeps typing";
  const fields = [
    { path: "/contact", island: "ContactPanel", name: "Name", field: (p: Page) => p.getByRole("textbox", { name: /^Name/ }) },
    { path: "/contact", island: "ContactPanel", name: "Message", field: (p: Page) => p.getByRole("textbox", { name: /^Message/ }) },
    { path: "/resources", island: "NewsletterSignup", name: "Email address", field: (p: Page) => p.getByRole("region", { name: "Get new resources in your inbox" }).getByRole("textbox") },
    { path: "/products/saas-3", island: "WaitlistForm", name: "Email address", field: (p: Page) => p.locator("#waitlist").getByRole("textbox") },
    { path: "/resources", island: "ResourceBrowser", name: "Search resources", field: search },
  ];

  for (const { path, island, name, field } of fields) {
    test(`${island} on ${path}: ${name}`, async ({ page }) => {
      const lost: string[] = [];
      for (let round = 0; round < 6; round++) {
        const held = round % 2 === 0 ? await holdModules(page) : null;
        await page.goto(path, { waitUntil: "commit" });
        const box = field(page);
        await box.click();
        const typing = box.pressSequentially(text, { delay: 15 });
        if (held) {
          await expect(box).toHaveValue(/^Ear/);
          await held.release();
        }
        await typing;
        await running(page, island);
        await box.press("End");
        await box.press("!");
        const value = await box.inputValue();
        if (value !== `${text}!`) lost.push(`round ${round}: "${value}"`);
        await page.unrouteAll({ behavior: "ignoreErrors" });
      }
      expect(lost).toEqual([]);
    });
  }
});
