import lighthouse from "lighthouse"; import * as chromeLauncher from "chrome-launcher";
const [path, runs, ...bases] = process.argv.slice(2);
const chrome = await chromeLauncher.launch({ chromePath: "/usr/bin/chromium", chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"] });
const res = Object.fromEntries(bases.map((b) => [b, []]));
for (let i = 0; i < Number(runs); i++) for (const b of bases) {
  const { lhr } = await lighthouse(b + path, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance"] });
  const bd = Object.fromEntries((lhr.audits["mainthread-work-breakdown"].details?.items ?? []).map((x) => [x.group, Math.round(x.duration)]));
  res[b].push({ tbt: Math.round(lhr.audits["total-blocking-time"].numericValue), layout: bd.styleLayout ?? 0, other: bd.other ?? 0, paint: bd.paintCompositeRender ?? 0 });
}
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const b of bases) console.log(b, ["tbt", "layout", "paint", "other"].map((k) => `${k} ${med(res[b].map((x) => x[k]))}`).join("  "), "| tbt", res[b].map((x) => x.tbt).join(","));
await chrome.kill();
