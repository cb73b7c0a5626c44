import { test, expect } from "./fixtures";
import { externalLinks } from "../app/content/site";

test.describe("home page", () => {
  test.beforeEach(async ({ page }) => {
    await page.goto("/");
  });

  test("hero: headline and both buttons", async ({ page }) => {
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Build, Launch, Scale & Exit Your SaaS Success Story");
    await expect(page.getByRole("link", { name: "Explore Services" })).toHaveAttribute("href", "/studio/service-packages");
    await expect(page.getByRole("main").getByRole("link", { name: "Our Products", exact: true })).toHaveAttribute("href", "/products");
  });

  test("logo strip", async ({ page }) => {
    const strip = page.getByRole("region", { name: "Trusted by Innovative Founders" });
    await expect(strip.getByRole("img")).toHaveCount(6);
    for (const img of await strip.getByRole("img").all()) {
      await expect(img).toHaveAttribute("width", "120");
      await expect(img).toHaveAttribute("height", "40");
    }
  });

  test("four approach cards", async ({ page }) => {
    const cards = page.getByRole("region", { name: "Our Approach" }).getByRole("heading", { level: 3 });
    await expect(cards).toHaveText(["Ideate", "Build", "Scale", "Exit"]);
  });

  test("flagship: Explore AURION and Try Demo in a new tab", async ({ page }) => {
    await expect(page.getByRole("link", { name: "Explore AURION" })).toHaveAttribute("href", "/products/aurion");
    const demo = page.getByRole("link", { name: /Try Demo/ });
    await expect(demo).toHaveAttribute("href", externalLinks.aurionDemo);
    await expect(demo).toHaveAttribute("target", "_blank");
    await expect(demo).toHaveAttribute("rel", "noopener noreferrer");
  });

  test("three service packages in the home reading", async ({ page }) => {
    const section = page.getByRole("region", { name: "Service Packages" });
    const cards = section.getByRole("article");
    await expect(cards).toHaveCount(3);
    const mvp = cards.filter({ hasText: "MVP Sprint" });
    await expect(mvp).toContainText("Starting at $25,000");
    await expect(mvp).toContainText("6-week build");
    for (const f of ["Requirements workshop", "UI/UX design", "Core feature development", "Basic analytics", "Technical documentation"]) {
      await expect(mvp.getByRole("listitem").filter({ hasText: f })).not.toContainText("Not included");
    }
    for (const f of ["Launch strategy", "Post-launch support"]) {
      await expect(mvp.getByRole("listitem").filter({ hasText: f })).toContainText("Not included");
    }
    const growth = cards.filter({ hasText: "Growth Retainer" });
    await expect(growth).toContainText("$10,000/month");
    await expect(growth).toContainText("Most Popular");
    await expect(growth).toContainText("24/7 support");
    await expect(growth).not.toContainText("Not included");
    const exit = cards.filter({ hasText: "Exit-Ready" });
    await expect(exit).toContainText("Custom pricing");
    await expect(exit).not.toContainText("Not included");
  });

  test("three testimonials with five-star ratings", async ({ page }) => {
    const ratings = page.getByRole("region", { name: "What Founders Say" }).getByRole("img", { name: "Rated 5 out of 5 stars" });
    await expect(ratings).toHaveCount(3);
  });

  test("closing call to action", async ({ page }) => {
    await expect(page.getByRole("link", { name: "Book a Discovery Call" })).toHaveAttribute("href", "/contact");
    await expect(page.getByRole("link", { name: "Explore Our Process" })).toHaveAttribute("href", "/studio");
  });

  test("every image has width and height, and none loads eagerly (the hero's, hidden on phones, waits for the layout)", async ({ page }) => {
    const imgs = page.locator("main img");
    for (const img of await imgs.all()) {
      await expect(img).toHaveAttribute("width", /\d+/);
      await expect(img).toHaveAttribute("height", /\d+/);
    }
    await expect(page.locator('main img[loading="eager"]')).toHaveCount(0);
  });

  test("a broken image falls back to a local picture", async ({ page }) => {
    await page.route("**/images/products/aurion.svg", (route) => route.abort());
    await page.goto("/");
    const img = page.getByRole("img", { name: "AURION assistant dashboard showing an automated workflow plan" });
    await img.scrollIntoViewIfNeeded();
    await expect(img).toHaveAttribute("src", "/images/fallback/ai.svg");
  });
});
