import type { Page } from "@playwright/test";
import { test, expect, hydrated, holdFunction } from "./fixtures";

const tabs = [
  { label: "All Resources", href: "/resources", h1: "Resources Hub" },
  { label: "Blog", href: "/resources/blog", h1: "Blog Articles" },
  { label: "Podcast", href: "/resources/podcasts", h1: "Podcasts" },
  { label: "Templates", href: "/resources/templates", h1: "Templates & Resources" },
];

const cards = (page: Page) => page.getByTestId("resource-results").getByTestId("resource-card");
const count = (page: Page) => page.getByTestId("resource-count");
const search = (page: Page) => page.getByRole("searchbox", { name: "Search resources" });
const category = (page: Page) => page.getByRole("combobox", { name: "Category" });
const sort = (page: Page) => page.getByRole("combobox", { name: "Sort" });
const cardTitles = (page: Page) => cards(page).getByRole("heading").allTextContents();
const cardDates = (page: Page) => cards(page).locator("time").evaluateAll((els) => els.map((e) => e.getAttribute("datetime")!));

async function openHub(page: Page, query = "") {
  await page.goto(`/resources${query}`);
  await hydrated(page);
}

/** pauseClock stops the page's fake clock (page.clock.install() before goto); page.clock.runFor moves it. */
async function pauseClock(page: Page) {
  const now = await page.evaluate(() => Date.now());
  await page.clock.pauseAt(now + 1000);
}

test.describe("resource tabs", () => {
  for (const current of tabs) {
    test(`on ${current.href} the four tabs are shown and only ${current.label} is current`, async ({ page }) => {
      await page.goto(current.href);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(current.h1);
      await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
      const links = page.getByRole("navigation", { name: "Resource sections" }).getByRole("link");
      await expect(links).toHaveText(tabs.map((t) => t.label));
      for (const [i, tab] of tabs.entries()) {
        await expect(links.nth(i)).toHaveAttribute("href", tab.href);
        if (tab === current) await expect(links.nth(i)).toHaveAttribute("aria-current", "page");
        else await expect(links.nth(i)).not.toHaveAttribute("aria-current", /.*/);
      }
    });
  }

  test("the tabs navigate between the four pages", async ({ page }) => {
    await page.goto("/resources");
    await hydrated(page);
    const nav = page.getByRole("navigation", { name: "Resource sections" });
    for (const tab of [...tabs.slice(1), tabs[0]!]) {
      await nav.getByRole("link", { name: tab.label }).click();
      await expect(page).toHaveURL(new RegExp(`${tab.href}$`));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(tab.h1);
      await expect(nav.getByRole("link", { name: tab.label })).toHaveAttribute("aria-current", "page");
    }
  });
});

test.describe("resources hub", () => {
  test("hero, featured guide and the first page of the list", async ({ page }) => {
    await openHub(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Resources Hub");
    const featured = page.getByRole("region", { name: "The SaaS Founder's Playbook" });
    await expect(featured).toContainText("Featured guide");
    await expect(featured.getByRole("link", { name: "Read the Playbook" })).toHaveAttribute("href", "/resources/saas-founders-playbook");
    await expect(cards(page)).toHaveCount(6);
    await expect(count(page)).toHaveText("Showing 6 of 13 resources");
    await expect(count(page)).toHaveAttribute("aria-live", "polite");
    // Newest first by default.
    const dates = await cardDates(page);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  test("search narrows the list after a 300 ms pause, by title, description or author, any case", async ({ page }) => {
    // A fake clock makes the debounce and the loading state exact, however busy the machine.
    await page.clock.install();
    await openHub(page);
    await pauseClock(page);
    await search(page).fill("NATARAJAN");
    await page.clock.runFor(250);
    await expect(count(page)).toHaveText("Showing 6 of 13 resources");
    expect(page.url()).not.toContain("q=");
    await page.clock.runFor(60);
    await expect(page).toHaveURL(/\?q=NATARAJAN$/);
    await expect(page.getByTestId("resources-loading")).toBeVisible();
    await page.clock.runFor(110);
    await expect(count(page)).toHaveText("Showing 3 of 3 resources");
    await expect(cards(page)).toHaveCount(3);
    for (const card of await cards(page).all()) await expect(card).toContainText("By Priya Natarajan");

    await search(page).fill("vertex");
    await page.clock.runFor(310);
    await expect(page).toHaveURL(/\?q=vertex$/);
    await page.clock.runFor(110);
    await expect(count(page)).toHaveText("Showing 1 of 1 resource");
    await expect(cardTitles(page)).resolves.toEqual(["Building for Exit: Start With the End in Mind"]);
  });

  test("typing quickly applies only the last text", async ({ page }) => {
    await openHub(page);
    await search(page).pressSequentially("pitch", { delay: 60 });
    await expect(count(page)).toHaveText("Showing 1 of 1 resource");
    await expect(cardTitles(page)).resolves.toEqual(["SaaS Pitch Deck Template"]);
    await expect(page).toHaveURL(/\?q=pitch$/);
  });

  test("no match shows the empty state; Clear Filters clears the search and resets the category", async ({ page }) => {
    await openHub(page);
    await category(page).selectOption("podcast");
    await expect(cards(page)).toHaveCount(4);
    await search(page).fill("kubernetes");
    await expect(page.getByRole("heading", { name: "No resources found" })).toBeVisible();
    await expect(page.getByText("Try changing your search or filter criteria")).toBeVisible();
    await expect(cards(page)).toHaveCount(0);
    await expect(count(page)).toHaveText("No resources found");
    await sort(page).selectOption("oldest");
    await expect(page.getByRole("heading", { name: "No resources found" })).toBeVisible();

    await page.getByRole("button", { name: "Clear Filters" }).click();
    await expect(search(page)).toHaveValue("");
    await expect(category(page)).toHaveValue("all");
    await expect(sort(page)).toHaveValue("oldest"); // the sort is not a filter
    await expect(count(page)).toHaveText("Showing 6 of 13 resources");
    await expect(page).toHaveURL(/\/resources\?sort=oldest$/);
  });

  test("category filter and sort order", async ({ page }) => {
    await openHub(page);
    await expect(category(page).locator("option")).toHaveText(["All", "Articles", "Podcasts", "Templates", "Guides"]);
    await expect(sort(page).locator("option")).toHaveText(["Newest first", "Oldest first"]);

    await category(page).selectOption("template");
    await expect(count(page)).toHaveText("Showing 4 of 4 resources");
    await expect(cardTitles(page)).resolves.toEqual([
      "SaaS Financial Model Template",
      "Due Diligence Checklist",
      "SaaS Pitch Deck Template",
      "Product Roadmap Framework",
    ]);
    for (const card of await cards(page).all()) await expect(card).toContainText("Template");

    await sort(page).selectOption("oldest");
    await expect(cards(page).first()).toContainText("Product Roadmap Framework");
    await expect(cardTitles(page)).resolves.toEqual([
      "Product Roadmap Framework",
      "SaaS Pitch Deck Template",
      "Due Diligence Checklist",
      "SaaS Financial Model Template",
    ]);

    for (const [value, n] of [["blog", 4], ["podcast", 4], ["guide", 1]] as const) {
      await category(page).selectOption(value);
      await expect(count(page)).toHaveText(`Showing ${n} of ${n} ${n === 1 ? "resource" : "resources"}`);
    }
    await category(page).selectOption("all");
    await expect(count(page)).toHaveText("Showing 6 of 13 resources");
    const dates = await cardDates(page);
    expect(dates).toEqual([...dates].sort());
  });

  test("every change shows a loading state for about 100 ms, then the results", async ({ page }) => {
    await page.clock.install();
    await openHub(page);
    await pauseClock(page);
    const loading = page.getByTestId("resources-loading");
    const results = page.getByTestId("resource-results");
    const change = [
      () => category(page).selectOption("blog"),
      () => sort(page).selectOption("oldest"),
      async () => {
        await search(page).fill("growth");
        await page.clock.runFor(300); // the debounce
      },
    ];
    for (const act of change) {
      await act();
      await expect(loading).toBeVisible();
      await expect(results).toHaveCount(0);
      await expect(count(page)).toHaveText("Loading resources…");
      await page.clock.runFor(90);
      await expect(loading).toBeVisible();
      await page.clock.runFor(20);
      await expect(loading).toHaveCount(0);
      await expect(results).toBeVisible();
    }
    await expect(count(page)).toHaveText("Showing 2 of 2 resources");
    await expect(cardTitles(page)).resolves.toEqual([
      "Product-Led Growth: A Practical Guide for B2B Teams",
      "Scaling Strategies That Work: From $1M to $10M ARR",
    ]);
  });

  test("Load More Resources reveals six more at a time, then disappears; paging restarts on a change", async ({ page }) => {
    await openHub(page);
    const more = page.getByRole("button", { name: "Load More Resources" });
    await expect(cards(page)).toHaveCount(6);
    await more.click();
    await expect(cards(page)).toHaveCount(12);
    await expect(count(page)).toHaveText("Showing 12 of 13 resources");
    // Keyboard users land on the first new card.
    await expect(cards(page).nth(6).getByRole("link").first()).toBeFocused();
    await more.click();
    await expect(cards(page)).toHaveCount(13);
    await expect(more).toHaveCount(0);
    await expect(count(page)).toHaveText("Showing 13 of 13 resources");

    await sort(page).selectOption("oldest");
    await expect(count(page)).toHaveText("Showing 6 of 13 resources");
    await expect(cards(page)).toHaveCount(6);
    await expect(more).toBeVisible();

    await category(page).selectOption("podcast");
    await expect(cards(page)).toHaveCount(4);
    await expect(more).toHaveCount(0);
  });

  test("the query lives in the URL: reload and a shared link keep the filtered view", async ({ page, context }) => {
    await openHub(page);
    await category(page).selectOption("blog");
    await sort(page).selectOption("oldest");
    await search(page).fill("growth");
    await expect(page).toHaveURL(/\/resources\?q=growth&category=blog&sort=oldest$/);
    await expect(count(page)).toHaveText("Showing 2 of 2 resources");
    const before = await cardTitles(page);
    expect(before).toEqual(["Product-Led Growth: A Practical Guide for B2B Teams", "Scaling Strategies That Work: From $1M to $10M ARR"]);

    await page.reload();
    await hydrated(page);
    await expect(search(page)).toHaveValue("growth");
    await expect(category(page)).toHaveValue("blog");
    await expect(sort(page)).toHaveValue("oldest");
    await expect(count(page)).toHaveText("Showing 2 of 2 resources");
    await expect(cardTitles(page)).resolves.toEqual(before);

    const other = await context.newPage();
    await other.goto("/resources?category=template&sort=oldest");
    await hydrated(other);
    await expect(cards(other).first()).toContainText("Product Roadmap Framework");
    await expect(cards(other)).toHaveCount(4);

    // Unknown values fall back to the defaults.
    await other.goto("/resources?category=videos&sort=random");
    await hydrated(other);
    await expect(category(other)).toHaveValue("all");
    await expect(count(other)).toHaveText("Showing 6 of 13 resources");
  });
});

test.describe("newsletter", () => {
  test("requires a valid email (browser validation)", async ({ page }) => {
    await openHub(page);
    const form = page.getByRole("region", { name: "Get new resources in your inbox" });
    const email = form.getByRole("textbox", { name: "Email address" });
    await expect(email).toHaveAttribute("type", "email");
    await expect(email).toHaveAttribute("required", "");
    const button = form.getByRole("button", { name: "Subscribe" });
    await button.click();
    expect(await email.evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);
    await email.fill("not-an-email");
    await button.click();
    expect(await email.evaluate((el: HTMLInputElement) => el.validity.typeMismatch)).toBe(true);
    await expect(button).toHaveText("Subscribe");
    await expect(page.getByText("Subscribed!")).toHaveCount(0);
  });

  test("idle → 'Subscribing...' (disabled) while the request runs → success toast and the field cleared", async ({ page }) => {
    const call = await holdFunction(page, "subscribe-newsletter");
    await openHub(page);
    const form = page.getByRole("region", { name: "Get new resources in your inbox" });
    const email = form.getByRole("textbox", { name: "Email address" });
    await email.fill("founder@example.com");
    await form.getByRole("button", { name: "Subscribe" }).click();
    const busy = form.getByRole("button", { name: "Subscribing..." });
    await expect(busy).toBeVisible();
    await expect(busy).toBeDisabled();
    await call.release();
    const toast = page.getByRole("status").filter({ hasText: "Subscribed!" });
    await expect(toast).toBeVisible();
    await expect(email).toHaveValue("");
    await expect(form.getByRole("button", { name: "Subscribe" })).toBeEnabled();
  });
});
