import { test, expect, hydrated, scrolledTo, holdFunction } from "./fixtures";
import { externalLinks } from "../app/content/site";

test.describe("/products", () => {
  test.beforeEach(async ({ page }) => {
    await page.goto("/products");
  });

  test("'Our SaaS Portfolio' with three cards and their status badges", async ({ page }) => {
    await expect(page).toHaveTitle("Our SaaS Portfolio | Meridian Studio");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Our SaaS Portfolio");
    const cards = page.getByRole("main").getByRole("article");
    await expect(cards).toHaveCount(3);
    await expect(cards.getByRole("heading", { level: 2 })).toHaveText(["AURION", "LedgerLoop", "Pulseboard"]);
    await expect(cards.nth(0).locator("[data-tone]")).toHaveText("Live");
    await expect(cards.nth(0).locator("[data-tone]")).toHaveAttribute("data-tone", "green");
    for (const i of [1, 2]) {
      await expect(cards.nth(i).locator("[data-tone]")).toHaveText("Coming Soon");
      await expect(cards.nth(i).locator("[data-tone]")).toHaveAttribute("data-tone", "yellow");
    }
  });

  test("'Learn More' on every card; 'Try Demo' (new tab) only on the live flagship", async ({ page }) => {
    const cards = page.getByRole("main").getByRole("article");
    for (const [i, id] of ["aurion", "saas-2", "saas-3"].entries()) {
      await expect(cards.nth(i).getByRole("link", { name: /^Learn More/ })).toHaveAttribute("href", `/products/${id}`);
    }
    const demo = cards.nth(0).getByRole("link", { name: /Try Demo/ });
    await expect(demo).toHaveAttribute("href", externalLinks.aurionDemo);
    await expect(demo).toHaveAttribute("target", "_blank");
    await expect(demo).toHaveAttribute("rel", "noopener noreferrer");
    for (const i of [1, 2]) {
      await expect(cards.nth(i).getByRole("link")).toHaveCount(1);
      await expect(cards.nth(i).getByRole("link").locator("svg")).toHaveCount(1); // the arrow
    }
  });

  test("'Have a SaaS Idea?' with both links", async ({ page }) => {
    const cta = page.getByRole("region", { name: "Have a SaaS Idea?" });
    await expect(cta.getByRole("link", { name: "Discuss Your Idea" })).toHaveAttribute("href", "/contact");
    await expect(cta.getByRole("link", { name: "Our Services" })).toHaveAttribute("href", "/studio/service-packages");
  });

  test("status badges keep AA contrast in light and dark", async ({ page }) => {
    for (const theme of ["light", "dark"]) {
      await page.evaluate((t) => localStorage.setItem("theme", t), theme);
      await page.reload();
      for (const badge of await page.locator("[data-tone]").all()) {
        const ratio = await badge.evaluate((el) => {
          // Resolve any CSS colour (oklch included) to sRGB through a canvas.
          const ctx = document.createElement("canvas").getContext("2d")!;
          const rgb = (css: string) => {
            ctx.clearRect(0, 0, 1, 1);
            ctx.fillStyle = css;
            ctx.fillRect(0, 0, 1, 1);
            return Array.from(ctx.getImageData(0, 0, 1, 1).data.slice(0, 3));
          };
          const lum = (c: number[]) =>
            c.map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)).reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i]!, 0);
          const s = getComputedStyle(el);
          const [a, b] = [lum(rgb(s.color)), lum(rgb(s.backgroundColor))];
          return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
        });
        expect(ratio, `${theme}: ${await badge.innerText()}`).toBeGreaterThanOrEqual(4.5);
      }
    }
  });
});

test.describe("/products/aurion (live mode)", () => {
  test.beforeEach(async ({ page }) => {
    await page.goto("/products/aurion");
  });

  test("hero: name, Live badge, 'Start Free Trial' and 'Learn More'", async ({ page }) => {
    await expect(page).toHaveTitle(/^AURION/);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /local-first/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("AURION");
    await expect(page.getByRole("main").locator("[data-tone]").first()).toHaveText("Live");
    const trial = page.getByRole("link", { name: /Start Free Trial/ });
    await expect(trial).toHaveAttribute("href", externalLinks.aurionDemo);
    await expect(trial).toHaveAttribute("target", "_blank");
    await expect(trial).toHaveAttribute("rel", "noopener noreferrer");
    await expect(page.getByRole("link", { name: "Learn More" })).toHaveAttribute("href", "#features");
    // No picture is fetched before the first paint: the text is the largest paint on a phone.
    await expect(page.locator('main img[loading="eager"]')).toHaveCount(0);
    // The product's picture, in the first screen beside the text, stays low priority (Chrome raises a seen one to high).
    await expect(page.getByRole("img", { name: /^AURION assistant dashboard/ })).toHaveAttribute("fetchpriority", "low");
  });

  test("'Key Features' (6) and 'What Our Users Say' (3, five stars)", async ({ page }) => {
    const features = page.getByRole("region", { name: "Key Features" });
    await expect(features).toHaveAttribute("id", "features");
    await expect(features.getByRole("heading", { level: 3 })).toHaveCount(6);
    await expect(page.getByRole("region", { name: "What Our Users Say" }).getByRole("img", { name: "Rated 5 out of 5 stars" })).toHaveCount(3);
  });

  test("pricing at #pricing: Demo free, Professional $299/year most popular, Enterprise custom", async ({ page }) => {
    const pricing = page.locator("#pricing");
    const plans = pricing.getByRole("article");
    await expect(plans).toHaveCount(3);
    await expect(plans.nth(0)).toContainText("Demo");
    await expect(plans.nth(0)).toContainText("Free");
    await expect(plans.nth(1)).toContainText("Professional");
    await expect(plans.nth(1)).toContainText("$299/year");
    await expect(plans.nth(1)).toContainText("Most Popular");
    await expect(plans.nth(2)).toContainText("Enterprise");
    await expect(plans.nth(2)).toContainText("Custom");
    await expect(plans.nth(2).getByRole("link", { name: "Contact Sales" })).toHaveAttribute("href", "/contact");
    await expect(plans.nth(1).getByRole("link", { name: "Get Professional" })).toHaveAttribute("href", "/contact");
    await expect(plans.nth(0).getByRole("link", { name: /Start Free Demo/ })).toHaveAttribute("target", "_blank");
    await expect(pricing).toContainText("14-day money-back guarantee");
    await expect(pricing).toContainText("no contracts");
    await expect(pricing).toContainText("cancel anytime");
  });

  test("FAQ accordion: open, switch, close", async ({ page }) => {
    await hydrated(page);
    const faq = page.getByRole("region", { name: "Frequently Asked Questions" });
    const [a, b] = [faq.getByRole("button").nth(0), faq.getByRole("button").nth(1)];
    await scrolledTo(a);
    await a.click();
    await expect(faq.getByRole("region")).toHaveCount(1);
    await expect(faq.getByRole("region")).toHaveAccessibleName(await a.innerText());
    await b.click();
    await expect(faq.getByRole("region")).toHaveCount(1);
    await expect(faq.getByRole("region")).toHaveAccessibleName(await b.innerText());
    await expect(a).toHaveAttribute("aria-expanded", "false");
    await b.click();
    await expect(faq.getByRole("region")).toHaveCount(0);
  });

  test("closing call to action: 'Try Demo' external and 'View Pricing' to #pricing", async ({ page }) => {
    const cta = page.getByRole("region", { name: /Ready to meet AURION/ });
    const demo = cta.getByRole("link", { name: /Try Demo/ });
    await expect(demo).toHaveAttribute("href", externalLinks.aurionDemo);
    await expect(demo).toHaveAttribute("target", "_blank");
    await expect(demo).toHaveAttribute("rel", "noopener noreferrer");
    const view = cta.getByRole("link", { name: "View Pricing" });
    await expect(view).toHaveAttribute("href", "#pricing");
    await hydrated(page);
    await scrolledTo(view);
    await view.click();
    await expect(page).toHaveURL(/#pricing$/);
    await expect(page.getByRole("heading", { name: "Simple, Transparent Pricing" })).toBeInViewport();
  });
});

for (const [id, name] of [
  ["saas-2", "LedgerLoop"],
  ["saas-3", "Pulseboard"],
] as const) {
  test.describe(`/products/${id} (coming-soon mode)`, () => {
    test.beforeEach(async ({ page }) => {
      await page.goto(`/products/${id}`);
    });

    test("hero with 'Join Waitlist' and 'Get Updates' leading to the form", async ({ page }) => {
      await expect(page).toHaveTitle(new RegExp(`^${name}`));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
      await expect(page.getByRole("main").locator("[data-tone]").first()).toHaveText("Coming Soon");
      await expect(page.getByRole("link", { name: "Join Waitlist", exact: true })).toHaveAttribute("href", "#waitlist");
      await expect(page.getByRole("link", { name: "Get Updates", exact: true })).toHaveAttribute("href", "#waitlist");
      await expect(page.locator("#waitlist").getByRole("heading", { level: 2 })).toHaveText("Coming Soon");
      // No live-mode sections.
      await expect(page.getByRole("region", { name: "Key Features" })).toHaveCount(0);
      await expect(page.locator("#pricing")).toHaveCount(0);
    });

    test("the three info cards and 'Stay Updated'", async ({ page }) => {
      const info = page.getByRole("region", { name: "Launch Details" });
      await expect(info.locator("dd")).toContainText(["Q3 2023", "Businesses of all sizes", "Up to 40% off"]);
      const cta = page.getByRole("region", { name: "Stay Updated" });
      await expect(cta.getByRole("link").first()).toHaveAttribute("href", `/products/${id}#waitlist`);
    });
  });
}

test("the waitlist form: required email, 'Subscribing...', toast, field cleared", async ({ page }) => {
  await page.goto("/products/saas-2");
  await hydrated(page);
  await page.getByRole("link", { name: "Join Waitlist", exact: true }).click();
  const email = page.getByRole("textbox", { name: "Email address" });
  await expect(email).toBeInViewport();
  await expect(email).toHaveAttribute("type", "email");
  await expect(email).toHaveAttribute("required", "");

  const submit = page.locator("#waitlist").getByRole("button", { name: "Notify Me" });
  // Empty and malformed addresses are stopped by the browser.
  await submit.click();
  expect(await email.evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);
  await email.fill("not-an-email");
  await submit.click();
  expect(await email.evaluate((el: HTMLInputElement) => el.validity.typeMismatch)).toBe(true);
  await expect(page.getByRole("status")).toHaveCount(0);

  const call = await holdFunction(page, "join-waitlist");
  await email.fill("founder@example.com");
  await submit.click();
  const busy = page.locator("#waitlist").getByRole("button", { name: "Subscribing..." });
  await expect(busy).toBeDisabled();
  await call.release();
  await expect(page.getByRole("status")).toContainText("You're on the list!");
  await expect(page.getByRole("status")).toContainText("LedgerLoop");
  await expect(email).toHaveValue("");
  await expect(submit).toBeEnabled();
});

test("'Stay Updated' brings the visitor back to the form", async ({ page }) => {
  await page.goto("/products/saas-3");
  await hydrated(page);
  await page.getByRole("region", { name: "Stay Updated" }).getByRole("link").first().click();
  await expect(page).toHaveURL(/\/products\/saas-3#waitlist$/);
  await expect(page.getByRole("textbox", { name: "Email address" })).toBeInViewport();
});

test.describe("unknown products", () => {
  for (const path of ["/products/no-such-product", "/products/datasync", "/products/legalflow"]) {
    test(`${path}: 'Product Not Found' with status 404`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page).toHaveTitle("Product Not Found | Meridian Studio");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Product Not Found");
      await expect(page.getByText("The product you're looking for doesn't exist in our portfolio.")).toBeVisible();
      const back = page.getByRole("main").getByRole("link", { name: "Back to Products" });
      await expect(back).toHaveAttribute("href", "/products");
      await hydrated(page);
      // Hydration keeps the same page.
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Product Not Found");
      await back.click();
      await expect(page).toHaveURL(/\/products$/);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Our SaaS Portfolio");
    });
  }
});
