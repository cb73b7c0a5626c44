// make audit: Lighthouse (mobile profile) against the built binary on
// loopback, every route of the route table plus a resource detail page and the
// 404 page, RUNS runs each; prints the medians. A benchmark, not a test.
// Columns: the four category scores, FCP, LCP, LCP-FCP, TBT, "JS ms"
// (bootup-time: the main-thread time spent in scripts during the load), CLS,
// bytes, requests, and "blocking B": what the first paint waits for, the
// responses of the HTML and of the render-blocking stylesheets as served
// with brotli, headers included (under 14,600 B, one initial congestion
// window, it needs no second round trip; internal/server/first_paint_test.go
// checks it).
// Usage: node audit.mjs [routes...]   (env: RUNS, AUDIT_PORT, CHROMIUM_PATH)
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import lighthouse from "lighthouse";
import * as chromeLauncher from "chrome-launcher";

const root = new URL("../../", import.meta.url).pathname;
const RUNS = Number(process.env.RUNS ?? 3);
const PORT = Number(process.env.AUDIT_PORT ?? 18090);
const base = `http://127.0.0.1:${PORT}`;

const routeTable = [
  "/", "/studio", "/studio/service-packages", "/studio/venture-portfolio", "/studio/success-stories",
  "/products", "/products/aurion", "/products/saas-2", "/resources", "/resources/blog",
  "/resources/podcasts", "/resources/templates", "/about", "/contact", "/legal/terms",
  "/legal/privacy", "/legal/cookies", "/legal/affiliate-disclosure",
];
const routes = process.argv.slice(2).length ? process.argv.slice(2) : [...routeTable, "/resources/saas-founders-playbook", "/no-such-page"];

const server = spawn(join(root, "bin/studio"), ["serve", "--addr", `127.0.0.1:${PORT}`, "--data", mkdtempSync(join(tmpdir(), "audit-"))], { stdio: "ignore" });
process.on("exit", () => server.kill());
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${base}/healthz`)).ok) break;
  } catch {}
  if (i > 100) throw new Error("studio did not start; run make build first");
  await new Promise((r) => setTimeout(r, 100));
}

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});

/**
 * blockingBytes is what a page's first paint waits for, as served to a
 * browser that accepts brotli: the response of the page and of each
 * stylesheet its head links outside <noscript>, each counted as on the wire
 * over HTTP/1.1 (status line, headers, blank line, body). The same sum as
 * internal/server/first_paint_test.go, which keeps it under 14,600 B.
 */
async function blockingBytes(url) {
  const onWire = async (res) => {
    const body = Buffer.from(await res.clone().arrayBuffer()); // decoded by fetch; the header gives the served size
    let n = `HTTP/1.1 ${res.status} ${res.statusText}\r\n`.length + 2;
    for (const [name, value] of res.headers) n += `${name}: ${value}\r\n`.length;
    return n + Number(res.headers.get("content-length") ?? body.length);
  };
  const res = await fetch(url, { headers: { "accept-encoding": "br" } });
  let total = await onWire(res);
  const html = await res.text();
  const head = html.slice(0, html.indexOf("</head>")).replace(/<noscript>[\s\S]*?<\/noscript>/g, "");
  for (const [tag] of head.matchAll(/<link\b[^>]*>/g)) {
    if (!/\srel="stylesheet"/.test(tag) || /\smedia=/.test(tag)) continue;
    total += await onWire(await fetch(new URL(tag.match(/\shref="([^"]*)"/)[1], url), { headers: { "accept-encoding": "br" } }));
  }
  return total;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

const pad = (v, n) => String(v).padStart(n);
const row = (r) =>
  `${r.route.padEnd(36)} ${pad(r.perf, 4)} ${pad(r.a11y, 4)} ${pad(r.bp, 4)} ${pad(r.seo, 4)} ${pad(Math.round(r.fcp), 7)} ${pad(Math.round(r.lcp), 7)} ${pad(Math.round(r.lcpAfterFcp), 7)} ${pad(Math.round(r.tbt), 7)} ${pad(Math.round(r.bootup), 7)} ${pad(r.cls.toFixed(3), 6)} ${pad((r.bytes / 1024).toFixed(1), 6)} ${pad(r.requests, 4)} ${pad(r.blocking, 10)}`;

// Lighthouse now and then fails to record a trace (NO_NAVSTART): such a run
// is made again, up to ATTEMPTS times.
const ATTEMPTS = 3;
async function audit(url) {
  for (let attempt = 1; ; attempt++) {
    // ignoreStatusCode: the 404 page is audited too.
    const { lhr } = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", ignoreStatusCode: true });
    if (!lhr.runtimeError) return lhr;
    const problem = `${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`;
    if (attempt === ATTEMPTS) throw new Error(problem);
    process.stderr.write(`${problem}; again\n`);
  }
}

// Each route's row is printed as soon as it is measured.
console.log(`Lighthouse ${RUNS} runs per route, mobile profile, medians`);
console.log(`${"route".padEnd(36)} ${pad("perf", 4)} ${pad("a11y", 4)} ${pad("bp", 4)} ${pad("seo", 4)} ${pad("FCP ms", 7)} ${pad("LCP ms", 7)} ${pad("LCP-FCP", 7)} ${pad("TBT ms", 7)} ${pad("JS ms", 7)} ${pad("CLS", 6)} ${pad("KiB", 6)} ${pad("req", 4)} ${pad("blocking B", 10)}`);
const rows = [];
try {
  for (const route of routes) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const lhr = await audit(base + route);
      const a = lhr.audits;
      runs.push({
        perf: lhr.categories.performance.score * 100,
        a11y: lhr.categories.accessibility.score * 100,
        bp: lhr.categories["best-practices"].score * 100,
        seo: lhr.categories.seo.score * 100,
        fcp: a["first-contentful-paint"].numericValue,
        lcp: a["largest-contentful-paint"].numericValue,
        lcpAfterFcp: a["largest-contentful-paint"].numericValue - a["first-contentful-paint"].numericValue,
        tbt: a["total-blocking-time"].numericValue,
        // Main-thread script time of the load (Lighthouse bootup-time): less machine-dependent than TBT.
        bootup: a["bootup-time"].numericValue,
        cls: a["cumulative-layout-shift"].numericValue,
        bytes: a["total-byte-weight"].numericValue,
        requests: a["network-requests"].details?.items?.length ?? 0,
        failing: Object.values(lhr.categories).flatMap((c) =>
          c.auditRefs.filter((r) => r.weight > 0 && a[r.id].score !== null && a[r.id].score < 1).map((r) => `${c.id}:${r.id}`),
        ),
      });
    }
    const m = (k) => median(runs.map((r) => r[k]));
    const r = {
      route,
      ...Object.fromEntries(["perf", "a11y", "bp", "seo", "fcp", "lcp", "lcpAfterFcp", "tbt", "bootup", "cls", "bytes", "requests"].map((k) => [k, m(k)])),
      blocking: await blockingBytes(base + route),
      failing: [...new Set(runs.flatMap((r) => r.failing))],
    };
    rows.push(r);
    console.log(row(r));
  }
} finally {
  await chrome.kill();
  server.kill(); // else its handle keeps this process alive after the table
}

const failing = rows.filter((r) => r.failing.length);
if (failing.length) {
  console.log("\nAudits below 1 (any run):");
  for (const r of failing) console.log(`${r.route}: ${r.failing.join(", ")}`);
}
