// Screenshots of pages for looking at the site: node scripts/screenshot.mjs BASE_URL OUT_DIR path...
// Each path is taken at 375 and 1280 px, light and dark, full page.
import { chromium } from "@playwright/test";
import { mkdirSync } from "node:fs";

const [base, out, ...paths] = process.argv.slice(2);
mkdirSync(out, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
const full = process.env.FULL !== "0";
for (const path of paths) {
  for (const width of [375, 1280]) {
    for (const theme of ["light", "dark"]) {
      const page = await browser.newPage({ viewport: { width, height: width === 375 ? 667 : 800 } });
      await page.addInitScript(([t, banner]) => {
        localStorage.setItem("theme", t);
        if (!banner) localStorage.setItem("cookie-consent", "declined");
      }, [theme, Boolean(process.env.BANNER)]);
      await page.goto(base + path, { waitUntil: "networkidle" });
      const name = `${path.replace(/\//g, "_") || "_"}-${width}-${theme}.png`;
      await page.screenshot({ path: `${out}/${name}`, fullPage: full });
      await page.close();
    }
  }
}
await browser.close();
