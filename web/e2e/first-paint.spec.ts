import { test, expect } from "./fixtures";
import { formOutcomePaths, notFoundPaths, productPaths, resourcePaths, routeTable } from "../app/content/site-map";

/**
 * A public page paints first with its inlined critical CSS; its stylesheet
 * arrives after that paint (scripts/critical-css.mjs). Nothing of the first
 * screen may move when it does: every rule the first screen uses must be in
 * the critical CSS, and nothing the first screen shows may be laid out anew.
 * Each layout shift Chrome reports from the start of the load until the
 * stylesheet has been applied fails the test, with what moved. And the
 * largest paint must be of the first screen (the header, main's first
 * element, what is marked data-first-screen), painted with the first paint,
 * not something the stylesheet brings in later, such as the footer of a
 * short page.
 */
const paths = [...routeTable, ...productPaths(), ...resourcePaths().slice(0, 1), ...notFoundPaths, ...formOutcomePaths()];
const looks = [
  { name: "375 px, light", viewport: { width: 375, height: 812 }, theme: "light" },
  { name: "375 px, dark", viewport: { width: 375, height: 812 }, theme: "dark" },
  { name: "1280 px, light", viewport: { width: 1280, height: 800 }, theme: "light" },
];

for (const path of paths) {
  test(`${path}: nothing moves when the stylesheet arrives after the first paint`, async ({ browser }) => {
    for (const look of looks) {
      const context = await browser.newContext({ viewport: look.viewport });
      const page = await context.newPage();
      await page.addInitScript((theme) => {
        localStorage.setItem("cookie-consent", "declined");
        localStorage.setItem("theme", theme);
        const shifts: string[] = [];
        (window as unknown as { __shifts: string[] }).__shifts = shifts;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries() as (PerformanceEntry & { value: number; sources: { node?: Node; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[] })[]) {
            for (const s of e.sources) {
              const node = s.node instanceof Element ? `<${s.node.tagName.toLowerCase()} class="${s.node.getAttribute("class") ?? ""}">` : String(s.node?.nodeName);
              shifts.push(`${e.value.toFixed(4)} ${node} y ${s.previousRect.y} → ${s.currentRect.y}, h ${s.previousRect.height} → ${s.currentRect.height}`);
            }
          }
        }).observe({ type: "layout-shift", buffered: true });
        const w = window as unknown as { __largest?: Element | null };
        new PerformanceObserver((list) => {
          for (const e of list.getEntries() as (PerformanceEntry & { element: Element | null })[]) w.__largest = e.element;
        }).observe({ type: "largest-contentful-paint", buffered: true });
      }, look.theme);
      // The stylesheet is held until what the first paint laid out has been measured: whether a frame
      // paints before it arrives is a matter of timing, so the layout-shift entries alone would catch a
      // fault only sometimes. Every element with a box in the first viewport must keep its place.
      let release = () => {};
      const held = new Promise<void>((r) => (release = r));
      let requested = () => {};
      const asked = new Promise<void>((r) => (requested = r));
      await context.route(/\.css(\?|$)/, async (route) => {
        requested();
        await held;
        await route.continue();
      });
      await page.goto(path, { waitUntil: "commit" });
      await asked;
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      // Each element with a box in the first viewport, and where it is (kept in the page, by element).
      await page.evaluate(() => {
        const places = new Map<Element, { x: number; y: number }>();
        for (const el of document.body.querySelectorAll("*")) {
          const r = el.getClientRects()[0];
          if (r && r.top < innerHeight && r.bottom > 0 && r.left < innerWidth && r.right > 0) places.set(el, { x: Math.round(r.x), y: Math.round(r.y) });
        }
        (window as unknown as { __places: typeof places }).__places = places;
      });
      release();
      // Wait until the stylesheet is applied, then two frames.
      await expect.poll(() => page.evaluate(() => [...document.styleSheets].some((s) => s.href !== null && s.ownerNode?.parentElement?.tagName !== "NOSCRIPT"))).toBe(true);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const moved = await page.evaluate(() =>
        [...(window as unknown as { __places: Map<Element, { x: number; y: number }> }).__places].flatMap(([el, b]) => {
          const r = el.getClientRects()[0];
          const a = r && { x: Math.round(r.x), y: Math.round(r.y) };
          const what = `<${el.tagName.toLowerCase()} class="${el.getAttribute("class") ?? ""}">`;
          return !a || a.x !== b.x || a.y !== b.y ? [`${what} (${b.x}, ${b.y}) → ${a ? `(${a.x}, ${a.y})` : "no box"}`] : [];
        }),
      );
      expect(moved, `${look.name}: what moved when the stylesheet arrived`).toEqual([]);
      expect(await page.evaluate(() => (window as unknown as { __shifts: string[] }).__shifts), look.name).toEqual([]);
      const largest = await page.evaluate(() => {
        const el = (window as unknown as { __largest?: Element | null }).__largest;
        if (!el) return "no largest paint";
        const first = [...document.querySelectorAll("main > *")].find((n) => !["LINK", "SCRIPT", "TEMPLATE"].includes(n.tagName));
        const inFirstScreen = first?.contains(el) || el.closest("header, main > [data-first-screen], main > astro-island[data-first-screen], footer[data-first-screen]");
        return inFirstScreen ? "of the first screen" : `after the first screen: <${el.tagName.toLowerCase()} class="${el.getAttribute("class") ?? ""}">`;
      });
      expect(largest, `${look.name}: the largest paint`).toBe("of the first screen");
      await context.close();
    }
  });
}
