// Renders the share card (public/images/og/share.svg) to the JPEG that Open
// Graph and Twitter cards need: node scripts/share-image.mjs
import { chromium } from "@playwright/test";
import { readFileSync } from "node:fs";

const dir = new URL("../public/images/og/", import.meta.url).pathname;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
await page.setContent(`<!doctype html><body style="margin:0">${readFileSync(dir + "share.svg", "utf8")}</body>`);
await page.screenshot({ path: dir + "share.jpg", type: "jpeg", quality: 88, clip: { x: 0, y: 0, width: 1200, height: 630 } });
await browser.close();
console.log(`wrote ${dir}share.jpg`);
