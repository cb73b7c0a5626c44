// Critical CSS of a public page's first screen, inlined so that its first
// paint waits for no stylesheet (issue 20, "First paint at the floor").
//
// Beasties (the maintained fork of critters) keeps the rules of the site's
// stylesheet that match the elements of the first screen: the header, the
// first child of <main> and the cookie banner (marked as its containers).
// Then three cuts it cannot make: rules that apply only on a visitor's
// action (:hover, :focus…, not needed before the stylesheet has arrived),
// custom properties and @property rules that no var() left in the CSS reads
// (Tailwind's theme declares every colour the site uses), and empty blocks.
// What follows the first screen (main's later children, the footer) stays
// hidden until the stylesheet has arrived: app.css has the rule that shows
// it again (DEFERRED).
import Beasties from "beasties";
import postcss from "postcss";

/** What the first paint leaves hidden; app.css gives the same selector visibility: visible. */
export const DEFERRED = "main>:not(link,script,template)~*,body>footer";
export const HIDE_DEFERRED = `${DEFERRED}{visibility:hidden}`;

/** Pseudo-classes of a visitor's action: their rules wait for the stylesheet. */
const ACTION_STATE = /:(?:hover|focus|focus-visible|focus-within|active|visited|checked|disabled)\b/;

/**
 * Rules kept whatever the first screen holds: the page fade of a
 * cross-document view transition (app.css), and those that depend on what
 * the head's scripts set on <html> before the first paint, which the built
 * page does not show: the visitor's cookie choice (lib/consent.ts) hides the
 * banner. (The theme's .dark needs nothing: beasties matches a dark: rule by
 * its own class.)
 */
const ALWAYS = [/::view-transition/, /^main$/, /\[data-cookie-consent\]/];

const CONTAINER = "data-beasties-container";

/**
 * markFirstScreen marks the elements whose rules are critical: the header,
 * main's first element that is not a <link> (a hero's image preload may come
 * first) and the cookie banner. It returns null for a page without <main>
 * (the staff console, which its script renders).
 */
export function markFirstScreen(html) {
  if (!/<main\b/.test(html)) return null;
  return html
    .replace(/<header\b/, `<header ${CONTAINER}`)
    .replace(/(<main\b[^>]*>\s*(?:<link\b[^>]*>\s*)*<)([a-z][\w-]*)/, `$1$2 ${CONTAINER}`)
    .replace(/<([a-z][\w-]*)([^>]*\sdata-cookie-banner\b)/, `<$1 ${CONTAINER}$2`);
}

/** withoutUnusedRules drops action-state rules, then unread custom properties and empty blocks, until none is left. */
export function withoutUnusedRules(css) {
  const root = postcss.parse(css);
  root.walkRules((rule) => {
    const kept = rule.selectors.filter((s) => !ACTION_STATE.test(s));
    if (kept.length === 0) rule.remove();
    else if (kept.length < rule.selectors.length) rule.selectors = kept;
  });
  for (let removed = 1; removed > 0; ) {
    removed = 0;
    const read = new Set();
    root.walkDecls((d) => {
      for (const m of d.value.matchAll(/var\(\s*(--[\w-]+)/g)) read.add(m[1]);
    });
    root.walkDecls(/^--/, (d) => {
      if (!read.has(d.prop)) (d.remove(), removed++);
    });
    root.walkAtRules("property", (r) => {
      if (!read.has(r.params.trim())) (r.remove(), removed++);
    });
    root.walk((node) => {
      if ((node.type === "rule" || node.type === "atrule") && node.nodes?.length === 0) (node.remove(), removed++);
    });
  }
  return root.toString();
}

/**
 * criticalCssPages returns a function that turns a page's HTML into the same
 * page with its stylesheets' links replaced by a <style> of its critical CSS
 * (see above) and by the same links in a <noscript>, where they block the
 * first paint as before for a visitor without JavaScript; the head's first
 * inline script (DocumentHead's) gains the code that loads the stylesheets
 * once the first paint has happened (loadAfterFirstPaint): joined to it, the
 * CSP needs no hash of its own for it. root is the built site, from which
 * the stylesheets are read. A page without <main> comes back as it was.
 */
export function criticalCssPages(root) {
  const beasties = new Beasties({ path: root, preload: false, compress: true, keyframes: "critical", allowRules: ALWAYS, logLevel: "warn" });
  return async (html) => {
    const marked = markFirstScreen(html);
    const links = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)];
    if (!marked || links.length === 0) return html;
    const processed = await beasties.process(marked);
    const css = processed.match(/<style>([\s\S]*?)<\/style>/)?.[1];
    if (css === undefined) throw new Error("beasties inlined no CSS");
    const script = /<script>([\s\S]*?)<\/script>/;
    if (!script.test(html.slice(0, html.indexOf("</head>")))) throw new Error("no inline script in the head to load the stylesheets");
    const head = `<style>${withoutUnusedRules(css)}${HIDE_DEFERRED}</style><noscript>${links.map((m) => m[0]).join("")}</noscript>`;
    let placed = false;
    return html
      .replace(script, (_, code) => `<script>${code};\n${loadAfterFirstPaint(links.map((m) => m[1]))}</script>`)
      .replace(/<link rel="stylesheet" href="[^"]+">/g, () => (placed ? "" : ((placed = true), head)));
  };
}

/**
 * loadAfterFirstPaint is the script that adds the stylesheets to the head
 * once the first contentful paint has happened (in a browser without paint
 * timing: after the first frame), so that their request competes with
 * nothing the first paint needs.
 */
export function loadAfterFirstPaint(hrefs) {
  return (
    `(()=>{const l=()=>{for(const h of ${JSON.stringify(hrefs)}){const k=document.createElement("link");k.rel="stylesheet";k.href=h;document.head.append(k)}};` +
    `self.PerformanceObserver?.supportedEntryTypes?.includes("paint")?new PerformanceObserver((e,o)=>{e.getEntriesByName("first-contentful-paint").length&&(o.disconnect(),setTimeout(l))}).observe({type:"paint",buffered:!0}):requestAnimationFrame(()=>setTimeout(l))})()`
  );
}
