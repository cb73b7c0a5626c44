import type { Locator, Page } from "@playwright/test";
import { test, expect, hydrated } from "./fixtures";

/**
 * Issue 30 on the public site, items 7, 8 and 14: no single-character
 * shortcut (WCAG 2.1.4), placeholders readable (1.4.3), focus indicators
 * visible (1.4.11), focus kept after Clear Filters (2.4.3), email fields big
 * enough to hit (2.5.8). Colours are read from the browser (getComputedStyle)
 * and turned into sRGB by a canvas, so oklch and alpha count as painted.
 */

const widths = [375, 1280];
const themes = ["light", "dark"] as const;

const dialog = (page: Page) => page.getByRole("dialog", { name: "Search the site" });

async function open(page: Page, path: string, width: number, theme: "light" | "dark" = "light") {
  await page.setViewportSize({ width, height: 800 });
  await page.addInitScript((t) => localStorage.setItem("theme", t), theme);
  await page.goto(path);
}

/**
 * colours returns, for an element, the colour of its placeholder, of its
 * focus indicator (outline, or failing that box-shadow) and the backgrounds
 * it sits on (its own, or the first painted one under it, and the one
 * around it), each as the sRGB the screen shows (alpha blended over what
 * is under it), with the contrast ratios between them.
 */
async function colours(field: Locator) {
  return field.evaluate((el) => {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 1;
    const ctx = canvas.getContext("2d", { willReadFrequently: true })!;
    /** paint draws the colours one over another and returns the pixel. */
    const paint = (...layers: string[]): [number, number, number] => {
      ctx.clearRect(0, 0, 1, 1);
      for (const c of ["#fff", ...layers]) {
        ctx.fillStyle = c;
        ctx.fillRect(0, 0, 1, 1);
      }
      const [r, g, b] = ctx.getImageData(0, 0, 1, 1).data;
      return [r!, g!, b!];
    };
    const transparent = (c: string) => c === "transparent" || /^rgba\(.*,\s*0\)$/.test(c) || / \/ 0\)$/.test(c);
    /** backgrounds: the background colours from el up to the root, innermost first, painted ones only. */
    const backgrounds = (from: Element | null) => {
      const layers: string[] = [];
      for (let e = from; e; e = e.parentElement) {
        const c = getComputedStyle(e).backgroundColor;
        if (!transparent(c)) layers.push(c);
      }
      return layers;
    };
    const under = (from: Element | null) => paint(...backgrounds(from).reverse());
    const luminance = ([r, g, b]: number[]) => {
      const ch = (v: number) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * ch(r!) + 0.7152 * ch(g!) + 0.0722 * ch(b!);
    };
    const ratio = (a: number[], b: number[]) => {
      const [l1, l2] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return Math.round(((l1! + 0.05) / (l2! + 0.05)) * 100) / 100;
    };
    const fieldBg = backgrounds(el).reverse();
    const inside = paint(...fieldBg);
    const outside = under(el.parentElement);
    const placeholder = getComputedStyle(el, "::placeholder").color;
    const style = getComputedStyle(el);
    const outlined = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
    const shadow = style.boxShadow.match(/(rgba?|oklch|oklab|lab|lch|color)\([^)]*\)|#[0-9a-f]{3,8}/i)?.[0];
    const indicator = outlined ? style.outlineColor : style.boxShadow !== "none" && shadow ? shadow : null;
    const ring = indicator ? paint(...backgrounds(el.parentElement).reverse(), indicator) : null;
    return {
      placeholder: ratio(paint(...fieldBg, placeholder), inside),
      indicator: indicator ?? "none",
      // The indicator against what is next to it: the field inside, the page around it.
      focus: ring ? Math.min(ratio(ring, inside), ratio(ring, outside)) : 1,
    };
  });
}

test.describe("no single-character shortcut opens the search (WCAG 2.1.4)", () => {
  for (const width of widths) {
    test(`at ${width} px '/' on a link or the page does nothing, before and after the islands run; Ctrl+K still opens it`, async ({ page }) => {
      await open(page, "/", width);
      // Before any island runs: the early-search script.
      await page.locator("body").press("/");
      await page.locator("main a").first().focus();
      await page.keyboard.press("/");
      await page.waitForTimeout(300);
      await expect(dialog(page)).toHaveCount(0);

      await hydrated(page);
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press("/");
      await page.locator("main a").first().focus();
      await page.keyboard.press("/");
      await page.waitForTimeout(300);
      await expect(dialog(page)).toHaveCount(0);

      await page.keyboard.press("Control+k");
      await expect(dialog(page)).toBeVisible();
    });
  }
});

/** Every field with a placeholder on the public site, by page. */
const placeholderPages = ["/contact", "/resources", "/products/saas-3"];

test.describe("placeholders have 4.5:1 against their field (WCAG 1.4.3)", () => {
  for (const width of widths) {
    for (const theme of themes) {
      test(`at ${width} px, ${theme}`, async ({ page }) => {
        const low: string[] = [];
        for (const path of placeholderPages) {
          await open(page, path, width, theme);
          await hydrated(page);
          const fields = page.locator("input[placeholder], textarea[placeholder]");
          expect(await fields.count(), path).toBeGreaterThan(0);
          for (const field of await fields.all()) {
            const { placeholder } = await colours(field);
            const name = await field.evaluate((e) => e.getAttribute("name") ?? e.id);
            if (placeholder < 4.5) low.push(`${path} ${name}: ${placeholder}`);
          }
        }
        await page.keyboard.press("Control+k");
        const { placeholder } = await colours(dialog(page).getByRole("combobox"));
        if (placeholder < 4.5) low.push(`search dialog: ${placeholder}`);
        expect(low).toEqual([]);
      });
    }
  }
});

test.describe("focus indicators have 3:1 against what is next to them (WCAG 1.4.11)", () => {
  for (const width of widths) {
    for (const theme of themes) {
      test(`at ${width} px, ${theme}`, async ({ page }) => {
        const low: string[] = [];
        /** check focuses field as the keyboard would (no pointer has been used: :focus-visible holds) and measures its indicator. */
        const check = async (name: string, field: Locator) => {
          await field.scrollIntoViewIfNeeded();
          await field.focus();
          await expect(field).toBeFocused();
          expect(await field.evaluate((e) => e.matches(":focus-visible")), name).toBe(true);
          const { focus, indicator } = await colours(field);
          if (focus < 3) low.push(`${name}: ${focus} (${indicator})`);
        };
        await open(page, "/resources", width, theme);
        await hydrated(page);
        await check("resource search", page.getByRole("searchbox", { name: "Search resources" }));
        await check("Category", page.getByRole("combobox", { name: "Category" }));
        await check("Sort", page.getByRole("combobox", { name: "Sort" }));
        await check("newsletter", page.locator('input[type="email"]'));

        await open(page, "/contact", width, theme);
        await hydrated(page);
        for (const field of await page.locator("main form").locator("input:not([type=hidden]), textarea, select").all()) {
          if (!(await field.isVisible())) continue;
          await check(`contact ${await field.getAttribute("name")}`, field);
        }

        await open(page, "/products/saas-3", width, theme);
        await hydrated(page);
        await check("waitlist", page.locator('#waitlist input[type="email"]'));

        await page.keyboard.press("Control+k");
        const input = dialog(page).getByRole("combobox");
        await expect(input).toBeFocused();
        const { focus, indicator } = await colours(input);
        if (focus < 3) low.push(`search dialog: ${focus} (${indicator})`);

        expect(low).toEqual([]);
      });
    }
  }
});

test.describe("focus after Clear Filters (WCAG 2.4.3)", () => {
  for (const width of widths) {
    test(`at ${width} px it stays in the hub, on the search field`, async ({ page }) => {
      await open(page, "/resources", width);
      await hydrated(page);
      await page.getByRole("searchbox", { name: "Search resources" }).fill("kubernetes-nothing");
      const clear = page.getByRole("button", { name: "Clear Filters" });
      await clear.focus();
      await page.keyboard.press("Enter");
      await expect(page.getByTestId("resource-count")).toHaveText("Showing 6 of 13 resources");
      expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe("BODY");
      await expect(page.getByRole("searchbox", { name: "Search resources" })).toBeFocused();
    });
  }
});

test.describe("email fields are big enough to hit (WCAG 2.5.8)", () => {
  for (const width of widths) {
    test(`at ${width} px the waitlist, newsletter and resource fields are at least 40 px tall`, async ({ page }) => {
      const short: string[] = [];
      // What follows a page's first screen is laid out once its stylesheet has
      // arrived, which the page asks for after its first paint: maybe after
      // its load event, on a busy machine.
      const measure = async (name: string, field: Locator) => {
        await expect(field, name).toBeVisible();
        const height = await field.evaluate((el) => el.getBoundingClientRect().height);
        if (height < 40) short.push(`${name}: ${height}`);
      };
      await open(page, "/products/saas-3", width);
      await measure("waitlist", page.locator('#waitlist input[type="email"]'));
      await open(page, "/resources", width);
      await measure("newsletter", page.locator('input[type="email"]'));
      await measure("resource search", page.getByRole("searchbox", { name: "Search resources" }));
      await measure("Category", page.getByRole("combobox", { name: "Category" }));
      await measure("Sort", page.getByRole("combobox", { name: "Sort" }));
      expect(short).toEqual([]);
    });
  }
});

test.describe("Tab from the footer's last link reaches the theme choice (WCAG 2.1.1, issue 30 item 9)", () => {
  for (const width of widths) {
    for (const path of ["/", "/about", "/contact", "/products", "/resources"]) {
      test(`${path} at ${width} px`, async ({ page }) => {
        // The island's script never comes: what Tab reaches is the page's own HTML.
        await page.route("**/assets/theme-choice.*.js", (route) => route.abort());
        await open(page, path, width);
        const footer = page.getByRole("contentinfo");
        await footer.getByRole("link").last().focus();
        await page.keyboard.press("Tab");
        const focused = await page.evaluate(() => {
          const el = document.activeElement;
          return el instanceof HTMLInputElement ? `${el.type}:${el.name}` : (el?.tagName ?? "none");
        });
        expect(focused).toBe("radio:theme-choice");
        await expect(footer.getByRole("group", { name: "Theme" }).getByRole("radio")).toHaveCount(3);
      });
    }
  }
});
