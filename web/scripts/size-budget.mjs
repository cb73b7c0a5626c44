// Size budgets of the built site (deterministic, so a test): for every
// prerendered page, the JavaScript its islands load (module scripts,
// modulepreloads and every island's component and renderer, transitively
// through static imports; chunks loaded with import() on demand, such as the
// search dialog, are not counted), its CSS and its HTML, raw and gzip. A page
// whose only islands are the layout's (header, footer, cookie banner,
// toasts, search) has a tighter JavaScript budget than a page with islands
// of its own. "Before input" is the part that loads with no input from the
// visitor (scripts, modulepreloads, islands that are not client:interaction
// or client:visible): none may, so a page's load runs no React.
// The staff console (/admin, app/admin) is an app for signed-in staff, not a
// public page: it loads its code at once (client:only), so it has a budget of
// its own and no "before input" rule, and no public page may load any module
// that only the console uses.
// Fails when a page exceeds a budget or an <img> lacks width/height.
// Usage: node scripts/size-budget.mjs [build/client]
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";

export const BUDGETS = { js: 115 * 1024, layoutOnlyJs: 75 * 1024, jsBeforeInput: 0, consoleJs: 160 * 1024, css: 20 * 1024, html: 60 * 1024 }; // gzip bytes

/** The staff console's pages (app/pages/admin.astro). */
export const CONSOLE_ROUTES = new Set(["/admin"]);

/** The islands' directives that wait for the visitor (a use, or a scroll to them). */
const ON_INPUT = new Set(["interaction", "visible"]);

/** The islands of the layout (app/layouts/Layout.astro), on every page. */
export const LAYOUT_ISLANDS = new Set(["ThemeToggle", "MobileMenu", "CopyrightYear", "ThemeChoicePicker", "CookieBanner", "Toaster", "SiteSearch"]);

const root = process.argv[2] ?? new URL("../build/client/", import.meta.url).pathname;

function pages(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return pages(path);
    return name === "index.html" ? [path] : [];
  });
}

const gz = (buf) => gzipSync(buf, { level: 9 }).length;
const attr = (tag, name) => tag.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1];

/** jsClosure follows static imports of the listed modules, so nothing loaded at start-up is missed. */
function jsClosure(entries) {
  const seen = new Set();
  const queue = [...entries];
  while (queue.length) {
    const url = queue.pop();
    if (seen.has(url)) continue;
    seen.add(url);
    const code = readFileSync(join(root, url)).toString();
    for (const m of code.matchAll(/(?:^|[;\n}])\s*import\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+)["']/g)) {
      const spec = m[1];
      if (spec.startsWith("./")) queue.push(url.replace(/[^/]+$/, "") + spec.slice(2));
      else if (spec.startsWith("/")) queue.push(spec);
    }
  }
  return [...seen];
}

const rows = [];
const failures = [];
const consoleOnly = new Set(); // modules the console loads
const publicJs = new Set(); // modules any public page loads
for (const file of pages(root).sort()) {
  const route = "/" + relative(root, file).replace(/\/?index\.html$/, "");
  const html = readFileSync(file);
  const text = html.toString();
  const tags = [...text.matchAll(/<(link|script|img|astro-island)\b[^>]*>/g)].map((m) => m[0]);
  const islands = new Set();
  const jsEntries = new Set();
  const beforeInput = new Set();
  const css = new Set();
  for (const tag of tags) {
    const add = (url, atOnce) => {
      jsEntries.add(url);
      if (atOnce) beforeInput.add(url);
    };
    if (tag.startsWith("<link") && attr(tag, "rel") === "modulepreload") add(attr(tag, "href"), true);
    if (tag.startsWith("<script") && attr(tag, "src")) add(attr(tag, "src"), true);
    if (tag.startsWith("<link") && attr(tag, "rel") === "stylesheet") css.add(attr(tag, "href"));
    if (tag.startsWith("<astro-island")) {
      const atOnce = !ON_INPUT.has(attr(tag, "client"));
      add(attr(tag, "component-url"), atOnce);
      add(attr(tag, "renderer-url"), atOnce);
      islands.add(attr(tag, "component-export"));
    }
    if (tag.startsWith("<img") && (!attr(tag, "width") || !attr(tag, "height"))) failures.push(`${route}: <img> without width/height: ${tag.slice(0, 120)}`);
  }
  const js = jsClosure([...jsEntries].filter(Boolean));
  const sum = (urls, f) => urls.reduce((n, u) => n + f(readFileSync(join(root, u))), 0);
  const row = {
    route,
    jsRaw: sum(js, (b) => b.length),
    jsGzip: sum(js, gz),
    jsBeforeInputGzip: sum(jsClosure([...beforeInput].filter(Boolean)), gz),
    cssGzip: sum([...css], gz),
    htmlGzip: gz(html),
    layoutOnly: [...islands].every((name) => LAYOUT_ISLANDS.has(name)),
    islands: [...islands].filter((name) => !LAYOUT_ISLANDS.has(name)),
  };
  rows.push(row);
  if (CONSOLE_ROUTES.has(route)) {
    row.islands = ["(staff console)"];
    js.forEach((u) => consoleOnly.add(u));
    if (row.jsGzip > BUDGETS.consoleJs) failures.push(`${route}: the console's JS ${row.jsGzip} B gzip > ${BUDGETS.consoleJs}`);
  } else {
    js.forEach((u) => publicJs.add(u));
    const jsBudget = row.layoutOnly ? BUDGETS.layoutOnlyJs : BUDGETS.js;
    if (row.jsGzip > jsBudget) failures.push(`${route}: first-load JS ${row.jsGzip} B gzip > ${jsBudget}${row.layoutOnly ? " (a page with only the layout's islands)" : ""}`);
    if (row.jsBeforeInputGzip > BUDGETS.jsBeforeInput) failures.push(`${route}: JS loaded before any input ${row.jsBeforeInputGzip} B gzip > ${BUDGETS.jsBeforeInput}`);
  }
  if (row.cssGzip > BUDGETS.css) failures.push(`${route}: CSS ${row.cssGzip} B gzip > ${BUDGETS.css}`);
  if (row.htmlGzip > BUDGETS.html) failures.push(`${route}: HTML ${row.htmlGzip} B gzip > ${BUDGETS.html}`);
}

// The console's own modules (not React's renderer or the modules it shares with the islands) stay off public pages.
for (const u of consoleOnly) if (/\/console-app\./.test(u) && publicJs.has(u)) failures.push(`a public page loads the console's ${u}`);

const kb = (n) => (n / 1024).toFixed(1).padStart(7);
console.log(`${"route".padEnd(44)} ${"JS raw".padStart(7)} ${"JS gz".padStart(7)} ${"at load".padStart(7)} ${"CSS gz".padStart(7)} ${"HTML gz".padStart(7)}  page islands  (KiB; budgets gz: JS ${BUDGETS.layoutOnlyJs / 1024} with only the layout's islands, else ${BUDGETS.js / 1024}, ${BUDGETS.jsBeforeInput / 1024} before any input, the staff console ${BUDGETS.consoleJs / 1024}; CSS ${BUDGETS.css / 1024}, HTML ${BUDGETS.html / 1024})`);
for (const r of rows) console.log(`${r.route.padEnd(44)} ${kb(r.jsRaw)} ${kb(r.jsGzip)} ${kb(r.jsBeforeInputGzip)} ${kb(r.cssGzip)} ${kb(r.htmlGzip)}  ${r.islands.join(", ") || "-"}`);
if (rows.length === 0) failures.push(`no pages found under ${root}`);
if (failures.length) {
  console.error("\nSize budget failures:\n" + failures.join("\n"));
  process.exit(1);
}
console.log(`\n${rows.length} pages within budget.`);
