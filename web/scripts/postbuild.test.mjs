import { describe, expect, test } from "vitest";
import { withInlineScriptsJoined } from "./postbuild.mjs";

describe("withInlineScriptsJoined", () => {
  test("moves the body's inline classic scripts into the head's first, in order, and leaves other scripts", () => {
    const html =
      `<html><head><script>theme()</script><script type="application/ld+json">{"a":1}</script>` +
      `<script type="module" src="/a.js"></script></head><body><script>loader()</script><header></header>` +
      `<astro-island></astro-island><script>visible()</script></body></html>`;
    expect(withInlineScriptsJoined(html)).toBe(
      `<html><head><script>theme();\nloader();\nvisible()</script><script type="application/ld+json">{"a":1}</script>` +
        `<script type="module" src="/a.js"></script></head><body><header></header><astro-island></astro-island></body></html>`,
    );
  });

  test("leaves a page with one inline script as it was", () => {
    const html = `<html><head><script>theme()</script></head><body></body></html>`;
    expect(withInlineScriptsJoined(html)).toBe(html);
  });
});
