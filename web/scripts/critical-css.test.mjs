import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { readFileSync } from "node:fs";
import postcss from "postcss";
import { DEFERRED, HIDE_DEFERRED, SEEN_RULE, criticalCssPages, criticalRules, markFirstScreen, frameClasses, unwrapLeadingPseudo, withFirstScreenEnd } from "./critical-css.mjs";

describe("markFirstScreen", () => {
  test("marks the header, main's first element after its links, those marked data-first-screen, a footer so marked, and the cookie banner", () => {
    const html =
      `<html><body><header class="h"></header><main id="main"><link rel="preload" as="image" href="/a.svg"/>` +
      `<section class="hero"><div class="inner"></div></section><nav class="tabs" data-first-screen=""></nav><section class="later"></section>` +
      `</main><footer class="f" data-first-screen=""></footer><div class="c" data-cookie-banner></div></body></html>`;
    const marked = markFirstScreen(html);
    expect(marked).toContain(`<header data-beasties-container class="h">`);
    expect(marked).toContain(`<section data-beasties-container class="hero"><div class="inner">`);
    expect(marked).toContain(`<nav data-beasties-container class="tabs" data-first-screen="">`);
    expect(marked).toContain(`<section class="later">`);
    expect(marked).toContain(`<footer data-beasties-container class="f" data-first-screen="">`);
    expect(marked).toContain(`<div data-beasties-container class="c" data-cookie-banner>`);
  });

  test("is null for a page without <main> (the staff console)", () => {
    expect(markFirstScreen("<html><body><div id=app></div></body></html>")).toBeNull();
  });
});

describe("criticalRules", () => {
  const css =
    "@layer properties{@supports (((-webkit-hyphens:none)) and (not (margin-trim:inline))){*,:before,:after{--tw-shadow:0 0 #0000;--tw-unread:0}}}" +
    "@layer theme{:root{--color-a:red;--color-b:blue;--font:var(--color-a);--spacing:.25rem}}@layer base;" +
    "@layer utilities{.used{color:var(--font)}.p-2{padding:calc(var(--spacing) * 2)}.f{font-family:var(--font,serif)}.link:hover{color:var(--color-b)}" +
    ".s{box-shadow:var(--tw-shadow)}.t{transition-property:color;color:var(--color-b)}.w\\/90{background:#fffe6}" +
    "@supports (color:color-mix(in lab,red,red)){.w\\/90{background:color-mix(in oklab,white 90%,transparent)}}}" +
    "@media (hover:hover){.x:hover{color:red}}@property --tw-shadow{syntax:\"*\";inherits:false;initial-value:0 0 #0000}";
  const out = criticalRules(css);

  test("writes the theme's values where they are read, and keeps the layer's place", () => {
    for (const kept of [".used{color:red}", ".p-2{padding:calc(.25rem * 2)}", ".f{font-family:red}", ".t{color:blue}", "@layer theme;"]) expect(out).toContain(kept);
    expect(out).not.toContain("--color-a");
  });

  test("sets Tailwind's own properties on every element instead of registering them", () => {
    expect(out).toContain("@layer properties{*,:before,:after{--tw-shadow:0 0 #0000}}");
    expect(out).not.toContain("@property");
    expect(out).not.toContain("--tw-unread");
  });

  test("drops action states, transitions, color-mix() variants and the blocks left empty", () => {
    for (const gone of [":hover", "transition", "color-mix", "@media", "@supports"]) expect(out).not.toContain(gone);
    expect(out).toContain(".w\\/90{background:#fffe6}");
  });
});

describe("withFirstScreenEnd", () => {
  const head = `<html><head><link rel="expect" href="#main" blocking="render"></head><body><header></header>`;
  test("marks the end of the first screen and makes the first paint wait for it", () => {
    const out = withFirstScreenEnd(`${head}<main id="main"><section class="hero"><p>x</p></section><nav data-first-screen=""></nav><section class="later"></section></main><footer></footer></body></html>`);
    expect(out).toContain(`<link rel="expect" href="#first-screen-end" blocking="render">`);
    expect(out).toContain(`<nav data-first-screen=""></nav><template id="first-screen-end"></template><section class="later">`);
  });

  test("puts the end after a short page's footer", () => {
    const out = withFirstScreenEnd(`${head}<main id="main"><section class="hero"></section></main><footer data-first-screen=""></footer><div data-cookie-banner></div></body></html>`);
    expect(out).toContain(`<footer data-first-screen=""></footer><template id="first-screen-end"></template><div data-cookie-banner>`);
  });

  test("leaves a page without a render-blocking rel=expect link as it was", () => {
    const html = `<html><head></head><body><main><section></section></main></body></html>`;
    expect(withFirstScreenEnd(html)).toBe(html);
  });
});

describe("frameClasses", () => {
  test("are the classes of <body> and <main>", () => {
    expect(frameClasses(`<html><body class="flex min-h-dvh"><main id="main" class="flex-1 focus:outline-none"><div class="x"></div></main></body></html>`)).toEqual(["flex", "min-h-dvh", "flex-1", "focus:outline-none"]);
  });
});

describe("unwrapLeadingPseudo", () => {
  test("matches what a leading :where() or :is() wraps", () => {
    expect(unwrapLeadingPseudo(":where(.space-y-5>:not(:last-child))")).toBe(".space-y-5>:not(:last-child)");
    expect(unwrapLeadingPseudo(":is(:where(.a) .b)>.c")).toBe(".a .b>.c");
    expect(unwrapLeadingPseudo(".a:where(.b)")).toBe(".a:where(.b)");
  });
});

describe("criticalCssPages", () => {
  const root = mkdtempSync(join(tmpdir(), "critical-"));
  writeFileSync(join(root, "site.css"), ".grow{flex-grow:1}.h{color:red}.hero{margin:0}.later{padding:0}.foot{color:blue}:where(.space-y-5>:not(:last-child)){margin-block-end:1.25rem}:where(.space-y-8>:not(:last-child)){margin-block-end:2rem}[data-cookie-consent] [data-cookie-banner]{display:none}");
  const page = (main) =>
    `<html><head><script>theme()</script><link rel="stylesheet" href="/site.css"></head><body><header class="h"></header>${main}<footer class="foot"></footer></body></html>`;

  test("inlines the first screen's rules and loads the stylesheet after the first paint, or at once without JavaScript", async () => {
    const out = await criticalCssPages(root)(page(`<main><section class="hero"></section><section class="later"></section></main>`));
    const style = out.match(/<style>([\s\S]*?)<\/style>/)[1];
    expect(style).toContain(".h{color:red}");
    expect(style).toContain(".hero{margin:0}");
    expect(style).not.toContain(".later");
    expect(style).not.toContain(".foot");
    // The head's consent script marks <html> before the first paint: the banner stays hidden for one who chose.
    expect(style).toContain("[data-cookie-consent] [data-cookie-banner]{display:none}");
    // Then what hides the rest until the stylesheet comes, and the rule that counts the page shown.
    expect(style.endsWith(HIDE_DEFERRED + SEEN_RULE)).toBe(true);
    expect(out).toContain(`<noscript><link rel="stylesheet" href="/site.css"></noscript>`);
    expect(out.replace(/<noscript>[\s\S]*?<\/noscript>/, "")).not.toContain(`<link rel="stylesheet"`);
    const script = out.match(/<script>([^<]*)<\/script>/)[1];
    expect(script.startsWith("theme();")).toBe(true); // joined to the head's script: no hash of its own
    expect(script).toContain("first-contentful-paint");
    expect(script).toContain(`"/site.css"`);
    expect(out).not.toContain("data-beasties-container");
  });

  test("keeps the rules of <main>'s own classes, though not those of its later content", async () => {
    const out = await criticalCssPages(root)(page(`<main class="grow"><section class="hero"></section><section class="later"></section></main>`));
    const style = out.match(/<style>([\s\S]*?)<\/style>/)[1];
    expect(style).toContain(".grow{flex-grow:1}");
    expect(style).not.toContain(".later");
  });

  test("keeps a :where() rule of Tailwind's spacing for the first screen's elements, and only theirs", async () => {
    const out = await criticalCssPages(root)(page(`<main><section class="hero"><div class="space-y-5"><p></p><p></p></div></section><section class="later"><div class="space-y-8"><p></p><p></p></div></section></main>`));
    const style = out.match(/<style>([\s\S]*?)<\/style>/)[1];
    expect(style).toContain(":where(.space-y-5>:not(:last-child)){margin-block-end:1.25rem}");
    expect(style).not.toContain("space-y-8");
  });

  test("leaves a page without <main> as it was", async () => {
    const html = `<html><head><link rel="stylesheet" href="/site.css"></head><body><div id="app"></div></body></html>`;
    expect(await criticalCssPages(root)(html)).toBe(html);
  });

  test("hides what follows the first screen, the footer and the islands after it but the cookie banner", () => {
    document.body.innerHTML =
      `<header id="header"></header><main><link rel="preload"><section id="hero"></section><nav id="tabs" data-first-screen=""></nav><section id="later"></section>` +
      `<astro-island id="island"><div id="later-island"></div></astro-island></main><footer id="footer"></footer>` +
      `<astro-island><section id="banner" data-cookie-banner=""></section></astro-island><astro-island><section id="toaster"></section></astro-island>`;
    const hidden = [...document.querySelectorAll(DEFERRED)].map((el) => el.id);
    expect(hidden).toEqual(["later", "island", "later-island", "footer", "toaster"]);
  });

  test("hides what follows the first screen until the stylesheet shows it again with the same selector", () => {
    expect(HIDE_DEFERRED).toBe(`${DEFERRED}{display:none}`);
    const shown = [];
    const appCss = readFileSync("app/app.css", "utf8"); // vitest runs in web/
    postcss.parse(appCss).walkDecls("display", (d) => {
      if (d.value === "revert-layer") shown.push(d.parent.selectors.map((s) => s.replace(/\s+/g, "")).join(","));
    });
    expect(shown).toContain(DEFERRED);
  });
});
