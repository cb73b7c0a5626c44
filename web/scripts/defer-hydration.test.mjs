import { afterEach, describe, expect, test, vi } from "vitest";
import { BOOT_ID, PRELOADS_ID, deferHydration } from "./defer-hydration.mjs";

// The shape React Router's prerender gives a page (abridged).
const boot = `import "/assets/manifest-1.js";
import * as route0 from "/assets/root-2.js";
window.__reactRouterRouteModules = {"root":route0};
import("/assets/entry.client-3.js");`;
const page = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"/><script>theme()</script><link rel="stylesheet" href="/assets/app.css"/><link rel="modulepreload" href="/assets/manifest-1.js"/><link rel="modulepreload" href="/assets/entry.client-3.js"/><link rel="modulepreload" href="/assets/root-2.js"/></head><body><main><h1>Hello</h1></main><script>window.__reactRouterContext = {};</script><script type="module" async="">${boot}</script><div hidden id="S:0"><script>enqueue()</script></div></body></html>`;

describe("deferHydration", () => {
  const out = deferHydration(page);

  test("no module is requested by the HTML as parsed", () => {
    const outsideTemplate = out.replace(/<template[\s\S]*?<\/template>/g, "");
    expect(outsideTemplate).not.toContain('<link rel="modulepreload"');
    expect(outsideTemplate).not.toContain('<script type="module"');
    expect(out).toContain(`<template id="${PRELOADS_ID}"><link rel="modulepreload" href="/assets/manifest-1.js"/><link rel="modulepreload" href="/assets/entry.client-3.js"/><link rel="modulepreload" href="/assets/root-2.js"/></template></head>`);
  });

  test("the boot script keeps its exact text (its CSP hash) and the rest of the page is untouched", () => {
    expect(out).toContain(`<script type="text/plain" id="${BOOT_ID}">${boot}</script><script>requestAnimationFrame(`);
    expect(out).toContain('<script>theme()</script><link rel="stylesheet" href="/assets/app.css"/>');
    expect(out).toContain('<main><h1>Hello</h1></main><script>window.__reactRouterContext = {};</script>');
    expect(out).toContain('<div hidden id="S:0"><script>enqueue()</script></div></body>');
  });

  test("a page without a boot script, or one already deferred, is left as it is", () => {
    const plain = "<!DOCTYPE html><html><head></head><body><p>x</p></body></html>";
    expect(deferHydration(plain)).toBe(plain);
    expect(deferHydration(out)).toBe(out);
  });

  describe("in the browser", () => {
    afterEach(() => vi.useRealTimers());

    test("after the first frame, the preloads join the head and the boot script runs as a module", () => {
      vi.useFakeTimers();
      // innerHTML: the page's own scripts stay inert here.
      document.documentElement.innerHTML = out.replace(/^[\s\S]*?<html[^>]*>|<\/html>$/g, "");
      const loader = document.getElementById(BOOT_ID)?.nextElementSibling?.textContent ?? "";
      new Function(loader)();
      expect(document.head.querySelectorAll('link[rel="modulepreload"]')).toHaveLength(0);
      vi.advanceTimersToNextFrame(); // the frame is painted
      expect(document.querySelector('script[type="module"]')).toBeNull();
      vi.runAllTimers(); // the timer set during that frame
      expect([...document.head.querySelectorAll('link[rel="modulepreload"]')].map((l) => l.getAttribute("href"))).toEqual([
        "/assets/manifest-1.js",
        "/assets/entry.client-3.js",
        "/assets/root-2.js",
      ]);
      const module = document.querySelector('script[type="module"]');
      expect(module?.textContent).toBe(boot);
      expect(module?.previousElementSibling?.id).toBe(BOOT_ID);
    });
  });
});
