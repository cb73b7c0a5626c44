import type { Page } from "@playwright/test";
import { axeViolations } from "./axe";
import { test, expect, hydrated } from "./fixtures";

const dialog = (page: Page) => page.getByRole("dialog", { name: "Search the site" });
const input = (page: Page) => dialog(page).getByRole("combobox", { name: "Search pages, products, ventures and resources" });
const trigger = (page: Page) => page.getByRole("button", { name: "Search the site" });
const selected = (page: Page) => dialog(page).locator('[role="option"][aria-selected="true"]');

async function openHome(page: Page) {
  await page.goto("/");
  await hydrated(page);
}

test.describe("site-wide search", () => {
  test("is not part of the first load: its script is fetched when the dialog first opens", async ({ page }) => {
    const scripts: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.push(new URL(r.url()).pathname);
    });
    await openHome(page);
    await page.waitForLoadState("networkidle");
    const html = await page.content();
    expect(html).not.toContain("search-dialog");
    expect(scripts.filter((s) => s.includes("search-dialog"))).toEqual([]);

    await page.keyboard.press("Control+k");
    await expect(dialog(page)).toBeVisible();
    expect(scripts.filter((s) => s.includes("search-dialog"))).toHaveLength(1);
  });

  test("by mouse: the header button opens it, results appear as you type, best match first, and a click opens one", async ({ page }) => {
    await openHome(page);
    await trigger(page).click();
    await expect(dialog(page)).toBeVisible();
    await expect(input(page)).toBeFocused();
    await expect(dialog(page)).toContainText("Type to search pages, products, ventures and resources.");

    await input(page).fill("aurion");
    const options = dialog(page).getByRole("option");
    await expect(options).toHaveCount(4);
    await expect(options.nth(0)).toContainText(/AURION.*Product$/);
    await expect(options.nth(1)).toContainText(/AURION.*Venture$/);
    await expect(options.nth(2)).toContainText(/^Home.*Page$/);
    await expect(dialog(page).getByRole("status")).toHaveText("4 results");

    await input(page).fill("playbook");
    await expect(options.first()).toContainText("The SaaS Founder's Playbook");
    await dialog(page).getByRole("option", { name: /The SaaS Founder's Playbook/ }).click();
    await expect(page).toHaveURL(/\/resources\/saas-founders-playbook$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("The SaaS Founder's Playbook");
    await expect(dialog(page)).toHaveCount(0);
  });

  test("by mouse: the close button and a click outside close it, and focus returns to the button", async ({ page }) => {
    await openHome(page);
    await trigger(page).click();
    await dialog(page).getByRole("button", { name: "Close search" }).click();
    await expect(dialog(page)).toHaveCount(0);
    await expect(trigger(page)).toBeFocused();

    await trigger(page).click();
    await expect(input(page)).toBeFocused();
    await page.mouse.click(20, 700); // the backdrop
    await expect(dialog(page)).toHaveCount(0);
    await expect(trigger(page)).toBeFocused();
  });

  test("searches descriptions too, and says when nothing matches", async ({ page }) => {
    await openHome(page);
    await trigger(page).click();
    await input(page).fill("data room");
    await expect(dialog(page).getByRole("option", { name: /Building for Exit/ })).toBeVisible();
    await input(page).fill("qwertyuiop");
    await expect(dialog(page).getByRole("option")).toHaveCount(0);
    await expect(dialog(page).getByRole("paragraph").filter({ hasText: "No results for “qwertyuiop”" })).toBeVisible();
    await expect(dialog(page).getByRole("status")).toHaveText("No results for “qwertyuiop”");
  });

  test("by keyboard only: Enter on the focused button, arrows move, Enter opens, Escape closes", async ({ page }) => {
    await openHome(page);
    // Tab from the top of the page to the header's search button.
    for (let i = 0; i < 20 && !(await trigger(page).evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
    await expect(trigger(page)).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(input(page)).toBeFocused();
    await page.keyboard.type("scal");
    const options = dialog(page).getByRole("option");
    await expect(options.first()).toBeVisible();
    const count = await options.count();
    expect(count).toBeGreaterThan(2);

    // The first result is active; arrows move and wrap; the combobox points at the active option.
    await expect(options.nth(0)).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("ArrowDown");
    await expect(options.nth(1)).toHaveAttribute("aria-selected", "true");
    await expect(options.nth(0)).toHaveAttribute("aria-selected", "false");
    const activeId = await options.nth(1).getAttribute("id");
    await expect(input(page)).toHaveAttribute("aria-activedescendant", activeId!);
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowUp");
    await expect(options.nth(count - 1)).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("ArrowDown");
    await expect(options.nth(0)).toHaveAttribute("aria-selected", "true");

    // Escape closes and gives the focus back.
    await page.keyboard.press("Escape");
    await expect(dialog(page)).toHaveCount(0);
    await expect(trigger(page)).toBeFocused();

    // Open again, pick the second result with the keyboard.
    await page.keyboard.press("Enter");
    await page.keyboard.type("scaling strategies");
    await expect(selected(page)).toContainText("Scaling Strategies That Work");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/resources\/scaling-strategies$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Scaling Strategies That Work: From $1M to $10M ARR");
  });

  test("Ctrl+K and Cmd+K open it anywhere; '/' is only a character (no single-key shortcut, WCAG 2.1.4)", async ({ page }) => {
    await page.goto("/resources");
    await hydrated(page);
    for (const keys of ["Control+k", "Meta+k"]) {
      await page.keyboard.press(keys);
      await expect(dialog(page)).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(dialog(page)).toHaveCount(0);
    }
    await page.keyboard.press("/");
    await page.waitForTimeout(200);
    await expect(dialog(page)).toHaveCount(0);

    const field = page.getByRole("searchbox", { name: "Search resources" });
    await field.focus();
    await page.keyboard.type("a/b");
    await expect(field).toHaveValue("a/b");
    await expect(dialog(page)).toHaveCount(0);

    // Ctrl+K works from a text field, and focus comes back to it.
    await page.keyboard.press("Control+k");
    await expect(dialog(page)).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(field).toBeFocused();
  });

  test("focus is trapped in the dialog, and the page behind is inert", async ({ page }) => {
    await openHome(page);
    await page.keyboard.press("Control+k");
    await expect(input(page)).toBeFocused();
    const close = dialog(page).getByRole("button", { name: "Close search" });
    // The results list can take the focus too, so a long list scrolls by keyboard.
    const results = dialog(page).getByRole("region", { name: "Search results" });
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press("Tab");
      await expect(close).toBeFocused();
      await page.keyboard.press("Tab");
      await expect(results).toBeFocused();
      await page.keyboard.press("Tab");
      await expect(input(page)).toBeFocused();
    }
    await page.keyboard.press("Shift+Tab");
    await expect(results).toBeFocused();
    await page.keyboard.press("Shift+Tab");
    await expect(close).toBeFocused();
    await page.keyboard.press("Shift+Tab");
    await expect(input(page)).toBeFocused();
    // The dialog is modal: the page behind it cannot take the focus.
    expect(await dialog(page).evaluate((d: HTMLDialogElement) => d.open && d.matches(":modal"))).toBe(true);
    const behind = await page.evaluate(() => {
      const link = document.querySelector<HTMLAnchorElement>("header a")!;
      link.focus();
      return document.activeElement === link;
    });
    expect(behind).toBe(false);
  });

  test("the open dialog with results has no axe violations", async ({ page }) => {
    await openHome(page);
    await page.keyboard.press("Control+k");
    await input(page).fill("sca");
    await expect(dialog(page).getByRole("option").first()).toBeVisible();
    expect(await axeViolations(page, { include: "dialog" })).toEqual([]);
  });

  test("works on a phone", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 667 });
    await openHome(page);
    await trigger(page).click();
    await input(page).fill("template");
    await expect(dialog(page).getByRole("option", { name: /Resource$/ }).first()).toBeVisible();
    const box = (await dialog(page).boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    await dialog(page).getByRole("option", { name: /SaaS Financial Model Template/ }).click();
    await expect(page).toHaveURL(/\/resources\/financial-model-template$/);
  });
});
