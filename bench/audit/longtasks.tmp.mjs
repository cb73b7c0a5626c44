import lighthouse from "lighthouse";
import * as chromeLauncher from "chrome-launcher";
const chrome = await chromeLauncher.launch({ chromePath: "/usr/bin/chromium", chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"] });
for (const route of process.argv.slice(2)) {
  for (let i = 0; i < 3; i++) {
    const { lhr } = await lighthouse("http://127.0.0.1:4455" + route, { port: chrome.port, output: "json", logLevel: "error" });
    const a = lhr.audits;
    console.log(route, "TBT", Math.round(a["total-blocking-time"].numericValue), "bootup", Math.round(a["bootup-time"].numericValue));
    for (const t of a["long-tasks"].details?.items ?? []) console.log("   long", Math.round(t.startTime), Math.round(t.duration), t.url);
    for (const t of a["mainthread-work-breakdown"].details?.items ?? []) console.log("   mt", t.groupLabel, Math.round(t.duration));
    for (const t of (a["bootup-time"].details?.items ?? []).slice(0, 6)) console.log("   js", Math.round(t.total), Math.round(t.scripting), t.url);
  }
}
await chrome.kill();
