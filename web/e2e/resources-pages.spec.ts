import { readFileSync } from "node:fs";
import { axeViolations } from "./axe";
import { test, expect, hydrated } from "./fixtures";
import { siteUrl } from "../app/content/site";

/** The resource slugs of docs/requirements.md#routes. */
const specSlugs = [
  "saas-founders-playbook",
  "scaling-strategies",
  "building-for-exit-podcast",
  "financial-model-template",
  "ai-in-saas",
  "product-led-growth",
  "due-diligence-checklist",
  "onboarding-best-practices",
  "customer-centric-culture",
  "future-of-b2b-saas",
  "idea-to-ipo",
  "pitch-deck-template",
  "roadmap-framework",
];

const categoryPages = [
  { path: "/resources/blog", h1: "Blog Articles", badge: "Article", length: /\d+ min read$/ },
  { path: "/resources/podcasts", h1: "Podcasts", badge: "Podcast", length: /\d+ min listen$/ },
  { path: "/resources/templates", h1: "Templates & Resources", badge: "Template", length: /^(CSV|Markdown), \d+ KB$/ },
];

test.describe("category pages", () => {
  for (const cp of categoryPages) {
    test(`${cp.path}: '${cp.h1}' with 4 complete items, newest first`, async ({ page }) => {
      await page.goto(cp.path);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(cp.h1);
      const cards = page.getByTestId("resource-card");
      await expect(cards).toHaveCount(4);
      for (const [i, card] of (await cards.all()).entries()) {
        await expect(card.getByRole("heading", { level: 2 })).toHaveText(/\S/);
        await expect(card.getByRole("heading", { level: 2 }).getByRole("link")).toHaveAttribute("href", /^\/resources\/[a-z0-9-]+$/);
        await expect(card.locator("p").first()).toHaveText(/.{40,}/);
        await expect(card).toContainText(cp.badge);
        await expect(card.locator("time")).toHaveAttribute("datetime", /^\d{4}-\d{2}-\d{2}$/);
        await expect(card).toContainText(/By [A-Z][a-z]+ [A-Z][a-z]+/);
        await expect(card.getByTestId("resource-length")).toHaveText(cp.length);
        // The first card's cover, in the first screen, is drawn inline: it paints with the text.
        const cover = card.locator(i === 0 ? "svg[viewBox]" : "img").first();
        if (i > 0) await expect(cover).toHaveAttribute("src", /^\/images\/resources\/[a-z0-9-]+\.svg$/);
        await expect(cover).toHaveAttribute("width", "640");
        await expect(cover).toHaveAttribute("height", "360");
      }
      const dates = await cards.locator("time").evaluateAll((els) => els.map((e) => e.getAttribute("datetime")!));
      expect(dates).toEqual([...dates].sort().reverse());
    });
  }

  test("the templates page shows the sizes of the real files", async ({ page }) => {
    await page.goto("/resources/templates");
    await expect(page.getByTestId("resource-card").filter({ hasText: "SaaS Financial Model Template" })).toContainText("CSV, 3 KB");
  });

  test("a broken cover falls back to a picture from the fixed list", async ({ page }) => {
    await page.route("**/images/resources/ai-in-saas.svg", (route) => route.abort());
    await page.goto("/resources/blog");
    await hydrated(page);
    const img = page.getByTestId("resource-card").filter({ hasText: "AI in SaaS" }).locator("img");
    await img.scrollIntoViewIfNeeded();
    await expect(img).toHaveAttribute("src", /^\/images\/fallback\/(growth|code|document|ai|podcast|default)\.svg$/);
  });
});

test.describe("resource detail pages", () => {
  test("every resource in the lists links to a detail page that answers 200", async ({ page, request }) => {
    const hrefs = new Set<string>();
    await page.goto("/resources");
    await hydrated(page);
    const more = page.getByRole("button", { name: "Load More Resources" });
    while (await more.isVisible()) await more.click();
    await expect(page.getByTestId("resource-results").getByTestId("resource-card")).toHaveCount(13);
    for (const path of ["/resources", ...categoryPages.map((c) => c.path)]) {
      if (path !== "/resources") await page.goto(path);
      for (const href of await page.locator("main a.card-link").evaluateAll((as) => as.map((a) => a.getAttribute("href")!))) hrefs.add(href);
    }
    expect([...hrefs].sort()).toEqual(specSlugs.map((s) => `/resources/${s}`).sort());
    for (const href of hrefs) {
      const response = await request.get(href);
      expect(response.status(), href).toBe(200);
      const html = await response.text();
      expect(html.match(/<h1[\s>]/g), href).toHaveLength(1);
    }
  });

  test("an article: title, category, author, date, reading time, image and a body of several sections", async ({ page }) => {
    await page.goto("/resources/scaling-strategies");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Scaling Strategies That Work: From $1M to $10M ARR");
    await expect(page).toHaveTitle("Scaling Strategies That Work: From $1M to $10M ARR | Meridian Studio");
    const article = page.getByRole("article").first();
    await expect(article).toContainText("Article");
    await expect(article).toContainText("Priya Natarajan");
    await expect(article.locator("time")).toHaveText("March 18, 2025");
    await expect(article.getByTestId("resource-length")).toHaveText("9 min read");
    // The cover, in the first screen, is drawn inline: it paints with the text.
    await expect(article.getByRole("img", { name: /staircase of bars/ })).toHaveAttribute("viewBox", "0 0 640 360");
    const body = page.getByTestId("resource-body");
    expect(await body.getByRole("heading", { level: 2 }).count()).toBeGreaterThanOrEqual(4);
    await expect(body.getByRole("table")).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link")).toHaveText(["All resources", "Blog Articles"]);
    await expect(page.getByRole("region", { name: "More resources" }).getByTestId("resource-card")).toHaveCount(3);
  });

  test("an episode has show notes and a topic list", async ({ page }) => {
    await page.goto("/resources/building-for-exit-podcast");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Building for Exit: Start With the End in Mind");
    await expect(page.getByRole("article").first().getByTestId("resource-length")).toHaveText("42 min listen");
    const body = page.getByTestId("resource-body");
    await expect(body.getByRole("heading", { name: "Show notes" })).toBeVisible();
    await expect(body.getByRole("heading", { name: "Topics in this episode" })).toBeVisible();
    expect(await body.getByRole("listitem").count()).toBeGreaterThan(8);
  });

  test("a link inside a body goes to that resource", async ({ page }) => {
    await page.goto("/resources/scaling-strategies");
    await page.getByTestId("resource-body").getByRole("link", { name: "financial model template" }).click();
    await expect(page).toHaveURL(/\/resources\/financial-model-template$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("SaaS Financial Model Template");
  });

  test("the Markdown library never reaches the browser", async ({ page }) => {
    const urls = new Set<string>();
    page.on("response", (r) => {
      if (r.url().endsWith(".js")) urls.add(r.url());
    });
    await page.goto("/resources/ai-in-saas");
    await hydrated(page);
    await page.getByRole("link", { name: "All resources" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Resources Hub");
    await hydrated(page);
    const scripts = await Promise.all([...urls].map(async (url) => (await page.request.get(url)).text()));
    expect(scripts.length).toBeGreaterThan(3);
    for (const js of scripts) {
      expect(js).not.toContain("marked");
      expect(js).not.toContain("## "); // no raw Markdown either
    }
  });
});

test.describe("unknown resource", () => {
  test("answers 404 with the Page Not Found page", async ({ page }) => {
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const response = await page.goto("/resources/no-such-resource");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page Not Found");
    await expect(page.getByText("The page you're looking for doesn't exist or has been moved.")).toBeVisible();
    await expect(page).toHaveTitle("Page Not Found | Meridian Studio");
    await hydrated(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page Not Found");
    await expect(page.getByRole("link", { name: "Return to Home" })).toHaveAttribute("href", "/");
    expect(errors).toEqual([]);
  });

  test("a link to an unknown slug lands on Page Not Found", async ({ page }) => {
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto("/resources/ai-in-saas");
    await page.evaluate(() => {
      const a = document.createElement("a");
      a.href = "/resources/no-such-resource";
      a.textContent = "missing";
      document.querySelector('[data-testid="resource-body"]')!.append(a);
    });
    const [response] = await Promise.all([page.waitForResponse(/no-such-resource$/), page.getByRole("link", { name: "missing" }).click()]);
    expect(response.status()).toBe(404);
    await expect(page).toHaveURL(/\/resources\/no-such-resource$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page Not Found");
    await expect(page.getByText("Something went wrong")).toHaveCount(0);
    expect(errors).toEqual([]);
  });
});

test.describe("template downloads", () => {
  const files = [
    { name: "saas-financial-model.csv", type: "text/csv", starts: "SaaS Financial Model Template" },
    { name: "due-diligence-checklist.md", type: "text/markdown", starts: "# Due Diligence Checklist" },
    { name: "saas-pitch-deck-outline.md", type: "text/markdown", starts: "# SaaS Pitch Deck Outline" },
    { name: "product-roadmap-framework.csv", type: "text/csv", starts: "Product Roadmap Framework" },
  ];
  for (const f of files) {
    test(`${f.name} is a file of the public bucket downloads, served as an attachment of type ${f.type}`, async ({ request }) => {
      const response = await request.get(`/storage/v1/object/public/downloads/${f.name}?download`);
      expect(response.status()).toBe(200);
      expect(response.headers()["content-type"]).toBe(`${f.type}; charset=utf-8`);
      expect(response.headers()["content-disposition"]).toMatch(new RegExp(`^attachment; filename="?${f.name.replace(".", "\\.")}"?`));
      expect(response.headers()["content-security-policy"]).toBe("sandbox");
      expect((await response.text()).startsWith(f.starts)).toBe(true);
    });
  }

  test("an old /downloads/ address is sent to the file in storage/v1", async ({ request }) => {
    const response = await request.get("/downloads/saas-financial-model.csv", { maxRedirects: 0 });
    expect(response.status()).toBe(301);
    expect(response.headers()["location"]).toBe("/storage/v1/object/public/downloads/saas-financial-model.csv?download");
  });

  test("the Download button of a template page saves the file", async ({ page }) => {
    await page.goto("/resources/financial-model-template");
    await hydrated(page);
    const aside = page.getByRole("complementary", { name: "Download the template" });
    await expect(aside).toContainText("CSV spreadsheet · CSV, 3 KB");
    const [download] = await Promise.all([page.waitForEvent("download"), aside.getByRole("link", { name: /Download/ }).click()]);
    expect(download.suggestedFilename()).toBe("saas-financial-model.csv");
    const csv = readFileSync((await download.path())!, "utf8");
    expect(csv).toContain("Month,Customers,New customers");
    expect(csv.trim().split("\n").length).toBeGreaterThan(30);
  });
});

test.describe("RSS feed", () => {
  test("/rss.xml is valid RSS 2.0 of articles and episodes with absolute links", async ({ page, request }) => {
    const response = await request.get("/rss.xml");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toMatch(/^application\/(rss\+)?xml/);
    const xml = await response.text();
    await page.goto("/resources");
    const feed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, "application/xml");
      return {
        error: doc.querySelector("parsererror")?.textContent ?? null,
        root: doc.documentElement.nodeName,
        version: doc.documentElement.getAttribute("version"),
        title: doc.querySelector("channel > title")?.textContent,
        // Not atom:link, which CSS selectors match as "link" too.
        links: [...doc.querySelectorAll("channel > link, item > link, item > guid")].filter((l) => !l.prefix).map((l) => l.textContent!),
        items: [...doc.querySelectorAll("item")].map((i) => ({
          title: i.querySelector("title")?.textContent,
          link: i.querySelector("link")?.textContent,
          pubDate: i.querySelector("pubDate")?.textContent,
          description: i.querySelector("description")?.textContent,
        })),
      };
    }, xml);
    expect(feed.error).toBeNull();
    expect(feed.root).toBe("rss");
    expect(feed.version).toBe("2.0");
    expect(feed.title).toBeTruthy();
    expect(feed.items).toHaveLength(9);
    for (const item of feed.items) {
      expect(item.title).toBeTruthy();
      expect(item.description).toBeTruthy();
      expect(Number.isNaN(Date.parse(item.pubDate!))).toBe(false);
    }
    for (const link of feed.links) {
      expect(link.startsWith(`${siteUrl}/`), link).toBe(true);
      const path = new URL(link).pathname;
      expect((await request.get(path)).status(), path).toBe(200);
    }
    await expect(page.locator('link[rel="alternate"][type="application/rss+xml"]')).toHaveAttribute("href", "/rss.xml");
  });
});

test.describe("accessibility", () => {
  for (const path of ["/resources", "/resources?q=zzzz", "/resources/podcasts", "/resources/templates", "/resources/building-for-exit-podcast", "/resources/financial-model-template"]) {
    test(`${path} has no axe violations`, async ({ page }) => {
      await page.goto(path);
      await hydrated(page);
      if (path.includes("q=")) await expect(page.getByRole("button", { name: "Clear Filters" })).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
    });
  }
});
