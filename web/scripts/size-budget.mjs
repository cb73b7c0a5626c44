// Size budgets of the built site (deterministic, so a test): for every
// prerendered page, the JavaScript it loads on first load (module scripts and
// modulepreloads, transitively), its CSS and its HTML, raw and gzip. Fails
// when a page exceeds a budget or an <img> lacks width/height.
// Usage: node scripts/size-budget.mjs [build/client]
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";

export const BUDGETS = { js: 140 * 1024, css: 20 * 1024, html: 60 * 1024 }; // gzip bytes

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
for (const file of pages(root).sort()) {
  const route = "/" + relative(root, file).replace(/\/?index\.html$/, "");
  const html = readFileSync(file);
  const text = html.toString();
  const tags = [...text.matchAll(/<(link|script|img)\b[^>]*>/g)].map((m) => m[0]);
  const jsEntries = new Set();
  const css = new Set();
  for (const tag of tags) {
    if (tag.startsWith("<link") && attr(tag, "rel") === "modulepreload") jsEntries.add(attr(tag, "href"));
    if (tag.startsWith("<script") && attr(tag, "src")) jsEntries.add(attr(tag, "src"));
    if (tag.startsWith("<link") && attr(tag, "rel") === "stylesheet") css.add(attr(tag, "href"));
    if (tag.startsWith("<img") && (!attr(tag, "width") || !attr(tag, "height"))) failures.push(`${route}: <img> without width/height: ${tag.slice(0, 120)}`);
  }
  for (const m of text.matchAll(/import\("([^"]+)"\)/g)) jsEntries.add(m[1]);
  const js = jsClosure([...jsEntries].filter(Boolean));
  const sum = (urls, f) => urls.reduce((n, u) => n + f(readFileSync(join(root, u))), 0);
  const row = {
    route,
    jsRaw: sum(js, (b) => b.length),
    jsGzip: sum(js, gz),
    cssGzip: sum([...css], gz),
    htmlGzip: gz(html),
  };
  rows.push(row);
  if (row.jsGzip > BUDGETS.js) failures.push(`${route}: first-load JS ${row.jsGzip} B gzip > ${BUDGETS.js}`);
  if (row.cssGzip > BUDGETS.css) failures.push(`${route}: CSS ${row.cssGzip} B gzip > ${BUDGETS.css}`);
  if (row.htmlGzip > BUDGETS.html) failures.push(`${route}: HTML ${row.htmlGzip} B gzip > ${BUDGETS.html}`);
}

const kb = (n) => (n / 1024).toFixed(1).padStart(7);
console.log(`${"route".padEnd(44)} ${"JS raw".padStart(7)} ${"JS gz".padStart(7)} ${"CSS gz".padStart(7)} ${"HTML gz".padStart(7)}  (KiB; budgets gz: JS ${BUDGETS.js / 1024}, CSS ${BUDGETS.css / 1024}, HTML ${BUDGETS.html / 1024})`);
for (const r of rows) console.log(`${r.route.padEnd(44)} ${kb(r.jsRaw)} ${kb(r.jsGzip)} ${kb(r.cssGzip)} ${kb(r.htmlGzip)}`);
if (rows.length === 0) failures.push(`no pages found under ${root}`);
if (failures.length) {
  console.error("\nSize budget failures:\n" + failures.join("\n"));
  process.exit(1);
}
console.log(`\n${rows.length} pages within budget.`);
