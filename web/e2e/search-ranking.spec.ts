/**
 * The site search puts what was typed first: a product's or a resource's
 * name, typed and followed by Enter, opens that page (not a page whose
 * description mentions it).
 */
import type { Page } from "@playwright/test";
import { test, expect, hydrated } from "./fixtures";
import { searchDialog } from "../app/content/search";
import { headerLabels } from "../app/content/site";

const dialog = (page: Page) => page.getByRole("dialog", { name: searchDialog.title });
const input = (page: Page) => dialog(page).getByRole("combobox", { name: searchDialog.inputLabel });

for (const { query, path, title } of [
  { query: "aurion", path: "/products/aurion", title: "AURION" },
  { query: "pitch deck", path: "/resources/pitch-deck-template", title: "SaaS Pitch Deck Template" },
]) {
  test(`"${query}" and Enter open ${path}, the first result, highlighted`, async ({ page }) => {
    await page.goto("/");
    await hydrated(page);
    await page.getByRole("banner").getByRole("button", { name: headerLabels.search }).click();
    await input(page).pressSequentially(query);
    const first = dialog(page).getByRole("option").first();
    await expect(first).toContainText(title);
    await expect(first).toHaveAttribute("aria-selected", "true");
    await expect(dialog(page).locator('[role="option"][aria-selected="true"]')).toHaveCount(1);

    await page.keyboard.press("Enter");
    await expect(page).toHaveURL((url) => url.pathname === path);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(title);
  });
}
