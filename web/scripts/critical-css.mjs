// Critical CSS of a public page's first screen, inlined so that its first
// paint waits for no stylesheet (issue 20, "First paint at the floor").
//
// Beasties (the maintained fork of critters) keeps the rules of the site's
// stylesheet that match the elements of the first screen: the header, main's
// first element and those marked data-first-screen, and the cookie banner
// (marked as its containers). Then what the first paint can do without, to
// keep the page in one initial congestion window (criticalRules): rules of a
// visitor's action, transitions, the color-mix() variants of colours
// Tailwind also writes in sRGB, the theme's custom properties (their values
// written where they are read) and the registration of Tailwind's own (the
// fallback it ships for browsers without @property, applied everywhere). What follows the first screen
// (main's later children, the footer) stays unpainted until the stylesheet has
// arrived: app.css has the rule that shows it again (DEFERRED).
import Beasties from "beasties";
import postcss from "postcss";
import { parseDocument } from "htmlparser2";

/**
 * What the first paint leaves out: main's elements after its first (the
 * hero; a hero's image preload may come before it) that are not marked
 * data-first-screen, the root elements of such an island (an astro-island
 * has no box of its own), and the footer. A page whose first screen on a
 * phone reaches past its hero marks the elements it reaches (a resource
 * hub's section tabs and first cards); a page too short to fill a screen
 * (the not-found pages, a form's outcome) marks its footer, which would
 * otherwise be its largest paint, a moment after the first. And the islands
 * after the footer other than the cookie banner: the toaster's empty region,
 * which the stylesheet fixes to a corner of the screen, would otherwise sit in
 * the page's flow until then, and move when it came.
 *
 * display: none keeps them out of the first paint, unstyled and unlaid-out,
 * until the stylesheet has arrived, so the first style they get is the
 * stylesheet's, and they come in as new boxes, which move nothing of the
 * first screen. (content-visibility: hidden, tried before, left their box
 * in the first paint, sized and padded by the critical CSS alone; when one
 * began inside the first viewport, the stylesheet's arrival moved it, a
 * layout shift, e2e/first-paint.spec.ts. visibility: hidden left stale
 * critical styles in what content-visibility: auto then skips, seen by
 * assistive technology.) app.css gives the same selector
 * display: revert-layer.
 */
export const DEFERRED =
  "main>:not(link,script,template)~:not([data-first-screen]),main>:not(link,script,template)~astro-island:not([data-first-screen])>*,body>footer:not([data-first-screen]),body>astro-island>:not([data-cookie-banner])";
export const HIDE_DEFERRED = `${DEFERRED}{display:none}`;

/**
 * How a page shown is counted, with no script and no cookie (docs/analytics.md,
 * decision 0026): the rendered page lays out an empty box whose background is
 * SEEN_PATH (Go's analytics.SeenPath, which TestEveryPageCountsItsView holds
 * to this), and the server counts the page that its request names as
 * referrer. A prefetched page never shown fetches nothing; nor does a visitor
 * who declined cookies (lib/consent.ts marks <html> with the choice before
 * the first paint). In the page's inline style, never in app.css: a
 * stylesheet's rule would send the stylesheet as referrer.
 */
export const SEEN_PATH = "/seen";
export const SEEN_RULE = `:not([data-cookie-consent=declined])>body::after{content:"";position:fixed;background:url(${SEEN_PATH})}`;

/** Pseudo-classes of a visitor's action: their rules wait for the stylesheet. */
const ACTION_STATE = /:(?:hover|focus|focus-visible|focus-within|active|visited|checked|disabled)\b/;

/**
 * Rules kept whatever the first screen holds: the page fade of a
 * cross-document view transition (app.css), and those that depend on what
 * the head's scripts set on <html> before the first paint, which the built
 * page does not show: the visitor's cookie choice (lib/consent.ts) hides the
 * banner, and the dark theme (lib/theme.ts) gives the page its background and
 * text colour. (Other dark: rules need nothing: beasties matches them by
 * their own class.)
 */
const ALWAYS = [/::view-transition/, /^main$/, /\[data-cookie-consent\]/, /^html:where\(\.dark/];

const CONTAINER = "data-beasties-container";

/**
 * markFirstScreen marks the elements whose rules are critical: the header,
 * main's first element that is not a <link>, <script> or <template> and those
 * marked data-first-screen, a footer so marked (what DEFERRED leaves
 * visible), and the cookie banner. It returns null
 * for a page without <main> (the staff console, which its script renders).
 */
export function markFirstScreen(html) {
  const found = firstScreen(html);
  if (!found) return null;
  // From the last to the first, so that each insertion leaves the earlier offsets as they were.
  let out = html;
  for (const n of found.marked.sort((a, b) => b.startIndex - a.startIndex)) {
    const at = n.startIndex + 1 + n.name.length;
    out = `${out.slice(0, at)} ${CONTAINER}${out.slice(at)}`;
  }
  return out;
}

/**
 * FIRST_SCREEN_END is the id of an empty <template> placed right after the
 * first screen's last element (withFirstScreenEnd): the page's
 * <link rel="expect" blocking="render"> names it, so that the first paint
 * waits until the whole first screen is parsed, not only the header (on a
 * slow phone the parser may yield inside the hero, whose text would then
 * paint in a second frame, after the first paint: the largest paint late).
 */
export const FIRST_SCREEN_END = "first-screen-end";

/** withFirstScreenEnd places the FIRST_SCREEN_END marker and points the head's rel=expect link at it. */
export function withFirstScreenEnd(html) {
  const found = firstScreen(html);
  const expect = /<link rel="expect" href="#[^"]*" blocking="render">/;
  if (!found || !expect.test(html)) return html;
  const last = found.marked.filter((n) => n.name !== "header" && !("data-cookie-banner" in n.attribs)).sort((a, b) => b.endIndex - a.endIndex)[0];
  const at = last.endIndex + 1;
  return `${html.slice(0, at)}<template id="${FIRST_SCREEN_END}"></template>${html.slice(at)}`.replace(
    expect,
    `<link rel="expect" href="#${FIRST_SCREEN_END}" blocking="render">`,
  );
}

/** firstScreen finds what markFirstScreen marks; null for a page without <main>. */
function firstScreen(html) {
  const doc = parseDocument(html, { withStartIndices: true, withEndIndices: true });
  const find = (nodes, test) => {
    for (const n of nodes) {
      if (n.type !== "tag" && n.type !== "script" && n.type !== "style") continue;
      if (test(n)) return n;
      const found = find(n.children ?? [], test);
      if (found) return found;
    }
    return null;
  };
  const main = find(doc.children, (n) => n.name === "main");
  if (!main) return null;
  const marked = [
    find(doc.children, (n) => n.name === "header"),
    main.children.find((n) => n.type === "tag" && !["link", "script", "template"].includes(n.name)),
    ...main.children.filter((n) => n.type === "tag" && "data-first-screen" in n.attribs),
    find(doc.children, (n) => n.name === "footer" && "data-first-screen" in n.attribs),
    find(doc.children, (n) => n.attribs && "data-cookie-banner" in n.attribs),
  ].filter(Boolean);
  return { marked };
}

/**
 * frameClasses are the classes of the page's <body> and <main>, which lay
 * out everything (Layout.astro: a column at least a screen high whose main
 * grows, so that a short page's footer sits at the bottom): their rules are
 * critical, though neither element is a container (that would take in every
 * rule of the page).
 */
export function frameClasses(html) {
  const classes = [];
  for (const [, cls] of html.matchAll(/<(?:body|main)\b[^>]*?\sclass="([^"]*)"/g)) classes.push(...cls.split(/\s+/).filter(Boolean));
  return classes;
}

/**
 * criticalRules turns the rules beasties kept into what the first paint
 * needs (see the top of this file), with no custom property left that no
 * var() reads and no empty block. A layer left empty stays as a statement
 * (@layer theme;), which keeps the order of the layers the stylesheet
 * declares.
 */
export function criticalRules(css) {
  const root = postcss.parse(css);
  withoutActionStates(root);
  withoutColorMixVariants(root);
  withThemeValuesInlined(root);
  withPropertiesUnregistered(root);
  withoutTransitions(root);
  withoutUnread(root);
  return root.toString();
}

function withoutActionStates(root) {
  root.walkRules((rule) => {
    const kept = rule.selectors.filter((s) => !ACTION_STATE.test(s));
    if (kept.length === 0) rule.remove();
    else if (kept.length < rule.selectors.length) rule.selectors = kept;
  });
}

/** Tailwind writes a colour with opacity in sRGB, then again with color-mix() for browsers that have it: the first suffices. */
function withoutColorMixVariants(root) {
  root.walkAtRules("supports", (r) => {
    if (/^\(color:\s*color-mix\(/.test(r.params)) r.remove();
  });
}

/** The theme's custom properties (@layer theme) are constants: each var() that reads one gets its value. */
function withThemeValuesInlined(root) {
  const theme = new Map();
  root.walkAtRules("layer", (layer) => {
    if (layer.params === "theme") layer.walkDecls(/^--/, (d) => theme.set(d.prop, d.value));
  });
  const inlined = (value) => {
    for (let at = value.indexOf("var("); at >= 0; at = value.indexOf("var(", at + 1)) {
      const end = closingParen(value, at + 3);
      const name = value.slice(at + 4, end).split(",")[0].trim();
      if (theme.has(name)) (value = value.slice(0, at) + theme.get(name) + value.slice(end + 1)), (at -= 1);
    }
    return value;
  };
  root.walkDecls((d) => {
    if (d.value.includes("var(")) d.value = inlined(d.value);
  });
}

/** closingParen is the index of the parenthesis that closes the one at open. */
function closingParen(text, open) {
  for (let i = open, depth = 0; i < text.length; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")" && --depth === 0) return i;
  }
  throw new Error(`unbalanced parentheses: ${text}`);
}

/** Nothing moves before the stylesheet has arrived: transitions wait for it. */
function withoutTransitions(root) {
  root.walkDecls(/^transition/, (d) => d.remove());
}

/**
 * Tailwind registers its own custom properties (--tw-shadow…) with @property,
 * and for browsers without it sets their initial values on every element in
 * @layer properties, under @supports. The latter alone does the same in every
 * browser, in fewer bytes.
 */
function withPropertiesUnregistered(root) {
  root.walkAtRules("property", (r) => r.remove());
  root.walkAtRules("layer", (layer) => {
    if (layer.params !== "properties") return;
    layer.walkAtRules("supports", (s) => s.replaceWith(s.nodes));
  });
}

/** withoutUnread drops the custom properties that no var() reads, then the blocks left empty, until none is left. */
function withoutUnread(root) {
  for (let removed = 1; removed > 0; ) {
    removed = 0;
    const read = new Set();
    root.walkDecls((d) => {
      for (const m of d.value.matchAll(/var\(\s*(--[\w-]+)/g)) read.add(m[1]);
    });
    root.walkDecls(/^--/, (d) => {
      if (!read.has(d.prop)) (d.remove(), removed++);
    });
    root.walk((node) => {
      if ((node.type !== "rule" && node.type !== "atrule") || node.nodes?.length !== 0) return;
      if (node.type === "atrule" && node.name === "layer") node.replaceWith(postcss.atRule({ name: "layer", params: node.params }));
      else (node.remove(), removed++);
    });
  }
}

/**
 * FirstScreenBeasties matches a rule whose selector starts with :where() or
 * :is() (Tailwind's space-y-*, divide-y) by what they wrap. Beasties strips
 * every pseudo-class with its argument before matching a selector, which
 * leaves nothing of ":where(.space-y-5>:not(:last-child))", so the rule was
 * never kept and the first screen's spacing changed when the stylesheet
 * arrived (a layout shift).
 */
class FirstScreenBeasties extends Beasties {
  normalizeCssSelector(sel) {
    return super.normalizeCssSelector(unwrapLeadingPseudo(sel));
  }
}

/** unwrapLeadingPseudo turns ":where(X)Y" and ":is(X)Y" into "XY", as often as they lead. */
export function unwrapLeadingPseudo(sel) {
  while (/^:(?:where|is)\(/.test(sel)) {
    const open = sel.indexOf("(");
    const close = closingParen(sel, open);
    sel = sel.slice(open + 1, close) + sel.slice(close + 1);
  }
  return sel;
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
  return async (page) => {
    const html = withFirstScreenEnd(page);
    const marked = markFirstScreen(html);
    const links = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)];
    if (!marked || links.length === 0) return page;
    const allowRules = [...ALWAYS, ...frameClasses(html).map((c) => `.${c.replace(/[^\w-]/g, "\\$&")}`)];
    const beasties = new FirstScreenBeasties({ path: root, preload: false, compress: true, keyframes: "critical", allowRules, logLevel: "warn" });
    const processed = await beasties.process(marked);
    const css = processed.match(/<style>([\s\S]*?)<\/style>/)?.[1];
    if (css === undefined) throw new Error("beasties inlined no CSS");
    const script = /<script>([\s\S]*?)<\/script>/;
    if (!script.test(html.slice(0, html.indexOf("</head>")))) throw new Error("no inline script in the head to load the stylesheets");
    const head = `<style>${criticalRules(css)}${HIDE_DEFERRED}${SEEN_RULE}</style><noscript>${links.map((m) => m[0]).join("")}</noscript>`;
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
 * nothing the first paint needs. The browser has scrolled a link to a
 * fragment (/studio#scale) before they arrived, with what follows the first
 * screen laid out by the critical CSS alone: on a new navigation, once they
 * have arrived, the fragment's element is scrolled into view again.
 */
export function loadAfterFirstPaint(hrefs) {
  return (
    `(()=>{const l=()=>{for(const h of ${JSON.stringify(hrefs)}){const k=document.createElement("link");k.rel="stylesheet";k.href=h;k.onload=f;document.head.append(k)}},` +
    `f=()=>{const t=location.hash&&document.getElementById(decodeURIComponent(location.hash.slice(1)));t&&performance.getEntriesByType("navigation")[0]?.type==="navigate"&&t.scrollIntoView()};` +
    `self.PerformanceObserver?.supportedEntryTypes?.includes("paint")?new PerformanceObserver((e,o)=>{e.getEntriesByName("first-contentful-paint").length&&(o.disconnect(),setTimeout(l))}).observe({type:"paint",buffered:!0}):requestAnimationFrame(()=>setTimeout(l))})()`
  );
}
