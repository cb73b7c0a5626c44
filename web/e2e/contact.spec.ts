import { execFileSync } from "node:child_process";
import type { Page } from "@playwright/test";
import { test, expect, hydrated } from "./fixtures";
import { dataDir, failingBaseURL } from "../playwright.config";
import { contactDetails, contactForm, contactPage } from "../app/content/contact";
import { externalLinks } from "../app/content/site";
import { contactRules, functionMessages } from "../app/lib/validation";

/** field is the form's input or text area whose label starts with label. */
const field = (page: Page, label: string) => page.getByRole("textbox", { name: new RegExp(`^${label}`) });

const message = (name: string) => contactRules.find((r) => r.field === name)!.message;

type Stored = { id: string; received_at: string; name: string; email: string; company: string | null; phone: string | null; message: string; spam: boolean };

/** storedMessages reads the main server's store the way staff do: `studio messages list --format json`. */
function storedMessages(): Stored[] {
  const out = execFileSync("../bin/studio", ["messages", "list", "--format", "json", "--data", dataDir!], { encoding: "utf8" });
  return JSON.parse(out) as Stored[];
}

test.describe("contact page", () => {
  test.beforeEach(async ({ page }) => {
    await page.goto("/contact");
    await hydrated(page);
  });

  test("header, form fields and the right-hand column", async ({ page }) => {
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(contactPage.title);
    await expect(page.getByText(contactPage.description)).toBeVisible();
    await expect(page.getByRole("heading", { name: contactForm.title })).toBeVisible();

    for (const label of ["Name", "Email", "Message"]) {
      await expect(field(page, label)).toHaveAttribute("required", "");
    }
    for (const label of ["Company", "Phone"]) {
      await expect(field(page, label)).not.toHaveAttribute("required", "");
      await expect(field(page, label)).toHaveAccessibleName(`${label} (optional)`);
    }
    await expect(page.getByText("(optional)")).toHaveCount(2);
    await expect(field(page, "Email")).toHaveAttribute("type", "email");
    await expect(field(page, "Message")).toHaveAttribute("rows", "5");
    await expect(page.getByRole("button", { name: contactForm.submit })).toBeEnabled();

    const aside = page.getByRole("complementary", { name: contactDetails.title });
    await expect(aside.getByRole("link", { name: contactDetails.email.value })).toHaveAttribute("href", `mailto:${contactDetails.email.value}`);
    await expect(aside.getByRole("link", { name: contactDetails.phone.value })).toHaveAttribute("href", /^tel:\+/);
    await expect(aside).toContainText("San Francisco, CA, United States");
    await expect(aside.getByRole("heading", { name: "Schedule a Call" })).toBeVisible();
    await expect(aside).toContainText("free 30-minute consultation");
    const schedule = aside.getByRole("link", { name: /Book a Free Consultation/ });
    await expect(schedule).toHaveAttribute("href", externalLinks.scheduling);
    await expect(schedule).toHaveAttribute("target", "_blank");
    await expect(schedule).toHaveAttribute("rel", "noopener noreferrer");
  });

  test("the honeypot is out of reach of keyboards and screen readers", async ({ page }) => {
    const trap = page.locator('input[name="website"]');
    await expect(trap).toHaveAttribute("tabindex", "-1");
    await expect(trap).not.toBeInViewport();
    await expect(page.getByRole("textbox", { name: "Website" })).toHaveCount(0); // hidden from the accessibility tree
    await field(page, "Message").focus();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: contactForm.submit })).toBeFocused();
  });

  test("success: stored, toast, confirmation, then Send Another Message", async ({ page }) => {
    const marker = `e2e success ${Date.now()} ${Math.random()}`;
    await field(page, "Name").fill("  Ada Lovelace ");
    await field(page, "Email").fill("ada@example.com");
    await field(page, "Company").fill("Analytical Engines");
    await field(page, "Message").fill(marker);

    // Hold the request a moment so the busy state can be seen.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route("**/functions/v1/submit-contact", async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole("button", { name: contactForm.submit }).click();
    const busy = page.getByRole("button", { name: contactForm.submitting });
    await expect(busy).toBeDisabled();
    release();

    const toast = page.getByRole("status").filter({ hasText: contactForm.success.toastTitle });
    await expect(toast).toContainText(contactForm.success.toastDescription);
    await expect(page.getByRole("heading", { name: contactForm.success.title })).toBeVisible();
    await expect(page.getByText(contactForm.success.text)).toBeVisible();
    await expect(page.getByRole("button", { name: contactForm.submit })).toHaveCount(0);

    const stored = storedMessages().filter((m) => m.message === marker);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ name: "Ada Lovelace", email: "ada@example.com", company: "Analytical Engines", phone: null, spam: false });

    await page.getByRole("button", { name: contactForm.success.again }).click();
    await expect(page.getByRole("button", { name: contactForm.submit })).toBeEnabled();
    await expect(field(page, "Name")).toHaveValue("");
    await expect(field(page, "Message")).toHaveValue("");
  });

  test("client validation: each message at its field, nothing sent", async ({ page }) => {
    const sent: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/functions/")) sent.push(r.url());
    });
    const submit = page.getByRole("button", { name: contactForm.submit });
    await submit.click();
    for (const [label, name] of [["Name", "name"], ["Email", "email"], ["Message", "message"]] as const) {
      const input = field(page, label);
      await expect(input).toHaveAttribute("aria-invalid", "true");
      const describedBy = await input.getAttribute("aria-describedby");
      await expect(page.locator(`[id="${describedBy}"]`)).toHaveText(message(name));
    }
    await expect(field(page, "Name")).toBeFocused();

    await field(page, "Name").fill("x".repeat(101));
    await field(page, "Email").fill("not-an-address");
    await field(page, "Company").fill("c".repeat(101));
    await field(page, "Phone").fill("1".repeat(51));
    await field(page, "Message").fill("m".repeat(5001));
    await submit.click();
    for (const name of ["name", "email", "company", "phone", "message"]) {
      await expect(page.getByText(message(name), { exact: true })).toBeVisible();
    }

    // A blank name is no name; correcting a field takes its message away.
    await field(page, "Name").fill("   ");
    await submit.click();
    await expect(page.getByText(message("name"), { exact: true })).toBeVisible();
    await field(page, "Name").fill("Ada");
    await expect(page.getByText(message("name"), { exact: true })).toHaveCount(0);
    await expect(field(page, "Name")).not.toHaveAttribute("aria-invalid", "true");
    expect(sent).toEqual([]);
  });

  test("a network failure shows the fallback message and keeps the form", async ({ page }) => {
    await page.route("**/functions/v1/submit-contact", (route) => route.abort("connectionrefused"));
    await field(page, "Name").fill("Ada");
    await field(page, "Email").fill("ada@example.com");
    await field(page, "Message").fill("Hello");
    await page.getByRole("button", { name: contactForm.submit }).click();
    const alert = page.getByRole("alert").filter({ hasText: contactForm.error.toastTitle });
    await expect(alert).toContainText(contactForm.error.fallback);
    await expect(field(page, "Message")).toHaveValue("Hello");
  });
});

test.describe("contact page with a failing server", () => {
  test("the store is down: error toast with the server's message, the form kept", async ({ page }) => {
    await page.goto(`${failingBaseURL}/contact`);
    await hydrated(page);
    await field(page, "Name").fill("Ada Lovelace");
    await field(page, "Email").fill("ada@example.com");
    await field(page, "Phone").fill("+1 415 555 0100");
    await field(page, "Message").fill("Please call me back.");
    await page.getByRole("button", { name: contactForm.submit }).click();

    const alert = page.getByRole("alert");
    await expect(alert).toContainText(contactForm.error.toastTitle);
    await expect(alert).toContainText(functionMessages.unavailable);
    await expect(alert).toHaveAttribute("data-variant", "destructive");
    await expect(page.getByRole("button", { name: contactForm.submit })).toBeEnabled();
    await expect(field(page, "Name")).toHaveValue("Ada Lovelace");
    await expect(field(page, "Phone")).toHaveValue("+1 415 555 0100");
    await expect(field(page, "Message")).toHaveValue("Please call me back.");
    await expect(page.getByRole("heading", { name: contactForm.success.title })).toHaveCount(0);
  });
});
