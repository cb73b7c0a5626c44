import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { DEFERRED, HIDE_DEFERRED, criticalCssPages, markFirstScreen, withoutUnusedRules } from "./critical-css.mjs";

describe("markFirstScreen", () => {
  test("marks the header, main's first element after its links, and the cookie banner", () => {
    const html =
      `<html><body><header class="h"></header><main id="main"><link rel="preload" as="image" href="/a.svg"/>` +
      `<section class="hero"></section><section class="later"></section></main><div class="c" data-cookie-banner></div></body></html>`;
    const marked = markFirstScreen(html);
    expect(marked).toContain(`<header data-beasties-container class="h">`);
    expect(marked).toContain(`<section data-beasties-container class="hero">`);
    expect(marked).toContain(`<section class="later">`);
    expect(marked).toContain(`<div data-beasties-container class="c" data-cookie-banner>`);
  });

  test("is null for a page without <main> (the staff console)", () => {
    expect(markFirstScreen("<html><body><div id=app></div></body></html>")).toBeNull();
  });
});

describe("withoutUnusedRules", () => {
  const css =
    ":root{--color-a:red;--color-b:blue;--font:var(--color-a)}.used{color:var(--font)}.link:hover{color:var(--color-b)}" +
    "@media (hover:hover){.x:hover{color:red}}@property --tw-a{syntax:\"*\";inherits:false}@property --tw-b{syntax:\"*\";inherits:false}.y{margin:var(--tw-a)}";
  const out = withoutUnusedRules(css);

  test("keeps what the page reads", () => {
    for (const kept of ["--color-a:red", "--font:var(--color-a)", ".used{", "@property --tw-a"]) expect(out).toContain(kept);
  });

  test("drops action states, unread custom properties and the blocks left empty", () => {
    for (const gone of [":hover", "--color-b", "@property --tw-b", "@media"]) expect(out).not.toContain(gone);
  });
});

describe("criticalCssPages", () => {
  const root = mkdtempSync(join(tmpdir(), "critical-"));
  writeFileSync(join(root, "site.css"), ".h{color:red}.hero{margin:0}.later{padding:0}.foot{color:blue}[data-cookie-consent] [data-cookie-banner]{display:none}");
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
    expect(style.endsWith(HIDE_DEFERRED)).toBe(true);
    expect(out).toContain(`<noscript><link rel="stylesheet" href="/site.css"></noscript>`);
    expect(out.replace(/<noscript>[\s\S]*?<\/noscript>/, "")).not.toContain(`<link rel="stylesheet"`);
    const script = out.match(/<script>([^<]*)<\/script>/)[1];
    expect(script.startsWith("theme();")).toBe(true); // joined to the head's script: no hash of its own
    expect(script).toContain("first-contentful-paint");
    expect(script).toContain(`"/site.css"`);
    expect(out).not.toContain("data-beasties-container");
  });

  test("leaves a page without <main> as it was", async () => {
    const html = `<html><head><link rel="stylesheet" href="/site.css"></head><body><div id="app"></div></body></html>`;
    expect(await criticalCssPages(root)(html)).toBe(html);
  });

  test("hides what follows the first screen until the stylesheet shows it (app.css has DEFERRED too)", () => {
    expect(HIDE_DEFERRED).toBe(`${DEFERRED}{visibility:hidden}`);
  });
});
