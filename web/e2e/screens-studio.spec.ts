import { test, expect, hydrated } from "./fixtures";

test.describe("/studio", () => {
  test.beforeEach(async ({ page }) => {
    await page.goto("/studio");
  });

  test("title, one h1 and the hero buttons", async ({ page }) => {
    await expect(page).toHaveTitle("How We Build | Meridian Studio");
    await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /five-step process/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
    const main = page.getByRole("main");
    await expect(main.getByRole("link", { name: "Book a Discovery Call" })).toHaveAttribute("href", "/contact");
    await expect(main.getByRole("link", { name: "View Service Packages" })).toHaveAttribute("href", "/studio/service-packages");
  });

  test("the five steps in order, each with its anchor, three bullet points and an image; image sides alternate", async ({ page }) => {
    const steps = [
      ["ideate", "Ideate"],
      ["validate", "Validate"],
      ["launch", "Launch"],
      ["scale", "Scale"],
      ["exit", "Exit"],
    ] as const;
    const sides: string[] = [];
    for (const [i, [id, title]] of steps.entries()) {
      const step = page.locator(`#${id}`);
      await expect(step.getByRole("heading", { level: 3 })).toHaveText(`Step ${i + 1}: ${title}`);
      await expect(step.getByText(String(i + 1), { exact: true })).toBeVisible();
      await expect(step.getByRole("listitem")).toHaveCount(3);
      const img = step.getByRole("img");
      await expect(img).toHaveAttribute("src", `/images/studio/${id}.svg`);
      const imgBox = (await img.boundingBox())!;
      const headingBox = (await step.getByRole("heading").boundingBox())!;
      sides.push(imgBox.x > headingBox.x ? "right" : "left");
    }
    expect(sides).toEqual(["right", "left", "right", "left", "right"]);
  });

  test("'Why Choose' has the six named cards", async ({ page }) => {
    const section = page.getByRole("region", { name: /^Why Choose/ });
    await expect(section.getByRole("heading", { level: 3 })).toHaveText([
      "Technical Excellence",
      "Speed to Market",
      "Data-Driven Approach",
      "Global Perspective",
      "Founder-Centered",
      "Innovation Focus",
    ]);
  });

  test("client testimonials with ratings, and the call to action", async ({ page }) => {
    await expect(page.getByRole("region", { name: "What Our Clients Say" }).getByRole("img", { name: "Rated 5 out of 5 stars" })).toHaveCount(3);
    const cta = page.getByRole("region", { name: "Ready to start building?" });
    await expect(cta.getByRole("link", { name: "Start Your Project" })).toHaveAttribute("href", "/contact");
    await expect(cta.getByRole("link", { name: "Compare Packages" })).toHaveAttribute("href", "/studio/service-packages");
  });
});

test("the deep link /studio#scale scrolls that step into view", async ({ page }) => {
  await page.goto("/studio#scale");
  await hydrated(page);
  await expect(page.getByRole("heading", { name: "Step 4: Scale" })).toBeInViewport();
  await expect(page.getByRole("heading", { name: "Step 1: Ideate" })).not.toBeInViewport();
});

test.describe("/studio/service-packages", () => {
  test.beforeEach(async ({ page }) => {
    await page.goto("/studio/service-packages");
  });

  test("title and one h1", async ({ page }) => {
    await expect(page).toHaveTitle("Service Packages | Meridian Studio");
    await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /MVP Builder from \$25,000/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
  });

  test("the three packages of the service packages page", async ({ page }) => {
    const cards = page.getByRole("region", { name: "Choose Your Package" }).getByRole("article");
    await expect(cards).toHaveCount(3);
    const mvp = cards.filter({ hasText: "MVP Builder" });
    await expect(mvp).toContainText("From $25,000");
    await expect(mvp).toContainText("6-8 weeks");
    await expect(mvp).not.toContainText("Most Popular");
    const scale = cards.filter({ hasText: "Scale Package" });
    await expect(scale).toContainText("From $50,000");
    await expect(scale).toContainText("Most Popular");
    const exit = cards.filter({ hasText: "Exit Preparation" });
    await expect(exit).toContainText("From $35,000");
    for (const card of [mvp, scale, exit]) {
      expect(await card.getByRole("listitem").count()).toBeGreaterThanOrEqual(5);
      await expect(card.getByRole("link")).toHaveAttribute("href", "/contact");
    }
  });

  test("payment terms and sprints; 'Need a Custom Solution?'; 'Schedule a Call'", async ({ page }) => {
    const terms = page.getByRole("region", { name: "How Every Engagement Works" });
    await expect(terms).toContainText("50% deposit");
    await expect(terms).toContainText("balance at completion");
    await expect(terms).toContainText("2-week sprints");
    const custom = page.getByRole("region", { name: "Need a Custom Solution?" });
    await expect(custom.getByRole("link")).toHaveAttribute("href", "/contact");
    await expect(page.getByRole("link", { name: "Schedule a Call" })).toHaveAttribute("href", "/contact");
  });

  test("FAQ accordion of 5: open, switch, close; keyboard", async ({ page }) => {
    const faq = page.getByRole("region", { name: "Frequently Asked Questions" });
    const buttons = faq.getByRole("button");
    await expect(buttons).toHaveCount(5);
    await hydrated(page);
    const first = buttons.nth(0);
    const second = buttons.nth(1);
    const firstPanel = page.locator(`[id="${await first.getAttribute("aria-controls")}"]`);
    const secondPanel = page.locator(`[id="${await second.getAttribute("aria-controls")}"]`);
    await expect(firstPanel).toBeHidden();

    await first.click();
    await expect(first).toHaveAttribute("aria-expanded", "true");
    await expect(firstPanel).toBeVisible();
    await expect(firstPanel).toContainText("6-8 weeks");
    await expect(page.getByRole("region", { name: await first.innerText() })).toBeVisible();

    await second.click();
    await expect(first).toHaveAttribute("aria-expanded", "false");
    await expect(firstPanel).toBeHidden();
    await expect(secondPanel).toBeVisible();

    await second.click();
    await expect(second).toHaveAttribute("aria-expanded", "false");
    await expect(secondPanel).toBeHidden();

    // Keyboard: focus, arrow down to the next header, Enter opens it, Space closes it.
    await first.focus();
    await page.keyboard.press("ArrowDown");
    await expect(second).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(secondPanel).toBeVisible();
    await page.keyboard.press("Space");
    await expect(secondPanel).toBeHidden();
  });
});

test.describe("/studio/venture-portfolio", () => {
  test.beforeEach(async ({ page }) => {
    await page.goto("/studio/venture-portfolio");
  });

  test("title, one h1 and the stats row", async ({ page }) => {
    await expect(page).toHaveTitle("Venture Portfolio | Meridian Studio");
    await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
    const stats = page.getByRole("main").locator("dl").first();
    await expect(stats.locator("dd")).toHaveText(["12+", "4", "$25M+", "6+"]);
    await expect(stats.locator("dt")).toHaveText(["Ventures", "Exits", "Funding", "Industries"]);
  });

  test("six venture cards with their fields and 'View Details' links", async ({ page }) => {
    const cards = page.getByRole("region", { name: "Our Ventures" }).getByRole("article");
    await expect(cards).toHaveCount(6);
    const names = ["AURION", "DataSync", "CryptoTrack", "HealthMonitor", "LearnHub", "LegalFlow"];
    await expect(cards.getByRole("heading", { level: 3 })).toHaveText(names);
    for (const [i, name] of names.entries()) {
      const card = cards.nth(i);
      await expect(card.getByRole("link", { name: /^View Details/ })).toHaveAttribute("href", `/products/${name.toLowerCase()}`);
      await expect(card.getByRole("img")).toHaveAttribute("src", `/images/ventures/${name.toLowerCase()}.svg`);
      await expect(card).toContainText(/Active|Acquired/);
      await expect(card).toContainText(/Seed|Series A|Series B|Series C|Launch/);
      await expect(card).toContainText(/20\d\d/);
    }
  });

  test("the status tooltip shows on keyboard focus and hover, and Escape hides it", async ({ page }) => {
    await hydrated(page);
    const card = page.getByRole("article").filter({ hasText: "DataSync" });
    const badge = card.getByText("Acquired", { exact: true });
    const tip = page.getByRole("tooltip");
    await expect(tip).toHaveCount(0);

    // Reach the badge with Tab from the card's heading area.
    await card.getByRole("heading").evaluate((h) => {
      h.setAttribute("tabindex", "-1");
      (h as HTMLElement).focus();
    });
    await page.keyboard.press("Tab");
    await expect(badge).toBeFocused();
    await expect(tip).toHaveText("Successfully exited");
    await expect(badge).toHaveAccessibleDescription("Successfully exited");
    await page.keyboard.press("Escape");
    await expect(tip).toHaveCount(0);
    await page.keyboard.press("Tab");
    await expect(tip).toHaveCount(0);

    const active = page.getByRole("article").filter({ hasText: "CryptoTrack" }).getByText("Active", { exact: true });
    await active.hover();
    await expect(page.getByRole("tooltip")).toHaveText("Currently active");
  });

  test("investment criteria and the two buttons", async ({ page }) => {
    await expect(page.getByRole("region", { name: "Our Investment Criteria" }).getByRole("heading", { level: 3 })).toHaveCount(6);
    await expect(page.getByRole("link", { name: "Partner With Us" })).toHaveAttribute("href", "/contact");
    await expect(page.getByRole("link", { name: "Learn About Our Process" })).toHaveAttribute("href", "/studio");
  });

  test("'View Details' of a venture that is not a product leads to 'Product Not Found'", async ({ page }) => {
    await hydrated(page);
    await page.getByRole("link", { name: "View Details of DataSync" }).click();
    await expect(page).toHaveURL(/\/products\/datasync$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Product Not Found");
  });
});

test.describe("/studio/success-stories", () => {
  test.beforeEach(async ({ page }) => {
    await page.goto("/studio/success-stories");
  });

  test("title, one h1, three case studies with all their parts", async ({ page }) => {
    await expect(page).toHaveTitle("Success Stories | Meridian Studio");
    await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
    const studies = page.getByRole("main").getByRole("article");
    await expect(studies).toHaveCount(3);
    for (const study of await studies.all()) {
      await expect(study.getByRole("heading", { level: 2 })).toHaveCount(1);
      await expect(study.getByRole("heading", { level: 3 })).toHaveText(["The Challenge", "Our Solution", "Results"]);
      expect(await study.getByRole("listitem").count()).toBeGreaterThanOrEqual(3);
      await expect(study.getByRole("img")).toHaveAccessibleName(/\S/);
      await expect(study.locator("figure blockquote")).toHaveCount(1);
      await expect(study.locator("figcaption")).toContainText(",");
    }
  });

  test("'Book a Discovery Call' and the call to action to the service packages", async ({ page }) => {
    await expect(page.getByRole("main").getByRole("link", { name: "Book a Discovery Call" })).toHaveAttribute("href", "/contact");
    await expect(page.getByRole("main").getByRole("link", { name: "View Service Packages" })).toHaveAttribute("href", "/studio/service-packages");
  });
});
