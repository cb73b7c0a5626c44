import { test, expect } from "./fixtures";

test.describe("/about", () => {
  test.beforeEach(async ({ page }) => {
    await page.goto("/about");
  });

  test("title, one h1, the story with its founding year", async ({ page }) => {
    await expect(page).toHaveTitle("About Us | Meridian Studio");
    await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /founded in 2020/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
    const story = page.getByRole("region", { name: "Our Story" });
    await expect(story).toContainText("2020");
    await expect(story).toContainText("12+");
    await expect(page.getByRole("main")).toContainText("San Francisco");
  });

  test("four values and the four-person team", async ({ page }) => {
    await expect(page.getByRole("region", { name: "Our Values" }).getByRole("heading", { level: 3 })).toHaveCount(4);
    const team = page.getByRole("region", { name: "Meet the Team" });
    await expect(team.getByRole("heading", { level: 3 })).toHaveText(["Alex Morgan", "Priya Natarajan", "Daniel Okafor", "Sofia Lindqvist"]);
    for (const role of ["Founder & Managing Partner", "Partner, Engineering", "Partner, Growth", "Head of Design"]) {
      await expect(team.getByText(role, { exact: true })).toBeVisible();
    }
    for (const img of await team.getByRole("img").all()) {
      await expect(img).toHaveAttribute("src", /^\/images\/team\/.+\.svg$/);
      await expect(img).toHaveAttribute("width", "400");
      await expect(img).toHaveAttribute("alt", /^Portrait of /);
    }
  });

  test("'Get in Touch' goes to /contact", async ({ page }) => {
    await expect(page.getByRole("link", { name: "Get in Touch" })).toHaveAttribute("href", "/contact");
  });
});

const legal = [
  { path: "/legal/terms", title: "Terms of Service", sections: 10, must: ["[Governing law to be confirmed: State/Country]"] },
  { path: "/legal/privacy", title: "Privacy Policy", sections: 9, must: ["not directed to children under 13"] },
  {
    path: "/legal/cookies",
    title: "Cookie Policy",
    sections: 7,
    must: ["Essential Cookies", "Analytics Cookies", "Functionality", "Advertising", "Session and Persistent Cookies", "Third-Party Cookies"],
  },
  { path: "/legal/affiliate-disclosure", title: "Affiliate Disclosure", sections: 6, must: ["No Extra Cost to You", "Honest Reviews"] },
];

for (const doc of legal) {
  test(`${doc.path}: title, last updated, table of contents linking to ${doc.sections} numbered sections`, async ({ page }) => {
    await page.goto(doc.path);
    await expect(page).toHaveTitle(`${doc.title} | Meridian Studio`);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /.{40,}/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(doc.title);
    await expect(page.getByText("Last updated May 16, 2025")).toBeVisible();
    const toc = page.getByRole("navigation", { name: "Table of contents" });
    const links = toc.getByRole("link");
    await expect(links).toHaveCount(doc.sections);
    const sectionHeadings = page.getByRole("main").getByRole("heading", { level: 2 }).filter({ hasText: /^\d+\. / });
    await expect(sectionHeadings).toHaveCount(doc.sections);
    for (let i = 0; i < doc.sections; i++) {
      const href = (await links.nth(i).getAttribute("href"))!;
      expect(href).toMatch(/^#[a-z-]+$/);
      const section = page.locator(href);
      await expect(section.getByRole("heading", { level: 2 })).toHaveText(new RegExp(`^${i + 1}\\. `));
      await expect(links.nth(i)).toHaveText(await section.getByRole("heading", { level: 2 }).innerText());
    }
    for (const text of doc.must) await expect(page.getByRole("main")).toContainText(text);
  });
}

test("a table-of-contents link scrolls to its section", async ({ page }) => {
  await page.goto("/legal/privacy");
  await page.getByRole("navigation", { name: "Table of contents" }).getByRole("link", { name: "7. Children's Privacy" }).click();
  await expect(page).toHaveURL(/#childrens-privacy$/);
  await expect(page.getByRole("heading", { name: "7. Children's Privacy" })).toBeInViewport();
});
