import { execFileSync } from "node:child_process";
import { test, expect, hydrated } from "./fixtures";
import { dataDir, failingBaseURL } from "../playwright.config";

/** list reads the main server's store the way staff do, with the studio CLI. */
function list<T>(what: "waitlist" | "subscribers"): T[] {
  const out = execFileSync("../bin/studio", [what, "list", "--format", "json", "--data", dataDir!], { encoding: "utf8" });
  return JSON.parse(out) as T[];
}

const unique = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

test.describe("waitlist, end to end", () => {
  test("a sign-up is stored once for its product, however often it is sent", async ({ page }) => {
    const address = unique("waitlist");
    await page.goto("/products/saas-3");
    await hydrated(page);
    const form = page.locator("#waitlist");
    for (let i = 0; i < 2; i++) {
      await form.getByRole("textbox", { name: "Email address" }).fill(address);
      await form.getByRole("button", { name: "Notify Me" }).click();
      await expect(page.getByRole("status").filter({ hasText: "You're on the list!" }).last()).toBeVisible();
      await expect(form.getByRole("textbox", { name: "Email address" })).toHaveValue("");
    }
    const entries = list<{ product_id: string; email: string }>("waitlist").filter((e) => e.email === address);
    expect(entries).toEqual([expect.objectContaining({ product_id: "saas-3", email: address })]);
  });

  test("when the store is down: an error toast, and the address is kept", async ({ page }) => {
    await page.goto(`${failingBaseURL}/products/saas-2`);
    await hydrated(page);
    const form = page.locator("#waitlist");
    await form.getByRole("textbox", { name: "Email address" }).fill("kept@example.com");
    await form.getByRole("button", { name: "Notify Me" }).click();
    const alert = page.getByRole("alert");
    await expect(alert).toContainText("Error");
    await expect(form.getByRole("textbox", { name: "Email address" })).toHaveValue("kept@example.com");
    await expect(form.getByRole("button", { name: "Notify Me" })).toBeEnabled();
  });
});

test.describe("newsletter, end to end", () => {
  test("a subscription is stored once, however often it is sent", async ({ page }) => {
    const address = unique("news");
    await page.goto("/resources");
    await hydrated(page);
    const form = page.getByRole("region", { name: "Get new resources in your inbox" });
    for (let i = 0; i < 2; i++) {
      await form.getByRole("textbox", { name: "Email address" }).fill(address);
      await form.getByRole("button", { name: "Subscribe" }).click();
      await expect(page.getByRole("status").filter({ hasText: "Subscribed!" }).last()).toBeVisible();
      await expect(form.getByRole("textbox", { name: "Email address" })).toHaveValue("");
    }
    const entries = list<{ email: string }>("subscribers").filter((e) => e.email === address);
    expect(entries).toHaveLength(1);
  });

  test("when the store is down: an error toast, and the address is kept", async ({ page }) => {
    await page.goto(`${failingBaseURL}/resources`);
    await hydrated(page);
    const form = page.getByRole("region", { name: "Get new resources in your inbox" });
    await form.getByRole("textbox", { name: "Email address" }).fill("kept@example.com");
    await form.getByRole("button", { name: "Subscribe" }).click();
    await expect(page.getByRole("alert")).toContainText("Error");
    await expect(form.getByRole("textbox", { name: "Email address" })).toHaveValue("kept@example.com");
  });
});
