import { describe, expect, it } from "vitest";
import { DEFAULT_FALLBACK, LAST_RESORT, chooseFallback, nextSource, resourceFallbackIndex, resourceFallbacks } from "./image-fallback";

describe("chooseFallback", () => {
  it.each([
    { alt: "Portrait of Priya Natarajan", src: "/images/team/priya.svg", want: "/images/fallback/people.svg" },
    { alt: "AURION assistant dashboard", src: "/x.svg", want: "/images/fallback/ai.svg" },
    { alt: "Revenue chart", src: "/x.svg", want: "/images/fallback/growth.svg" },
    { alt: "", src: "/images/code-editor.png", want: "/images/fallback/code.svg" },
    { alt: "Episode cover", src: "/images/podcast/ep1.png", want: "/images/fallback/podcast.svg" },
    { alt: "Financial model template", src: "/t.png", want: "/images/fallback/document.svg" },
    { alt: "Nimbus logo", src: "/n.svg", want: "/images/fallback/logo.svg" },
    { alt: "A calm ocean", src: "/sea.jpg", want: DEFAULT_FALLBACK },
  ])("$alt / $src → $want", ({ alt, src, want }) => {
    expect(chooseFallback(alt, src)).toBe(want);
  });

  it("matches whole words, case-insensitively", () => {
    expect(chooseFallback("TEAM photo", "")).toBe("/images/fallback/people.svg");
    expect(chooseFallback("Maintenance window", "")).toBe(DEFAULT_FALLBACK); // "ai" inside a word is not "ai"
  });
});

describe("nextSource", () => {
  const fallback = "/images/fallback/ai.svg";
  it("goes original → fallback → last resort → stop", () => {
    expect(nextSource("/broken.png", fallback)).toBe(fallback);
    expect(nextSource(fallback, fallback)).toBe(LAST_RESORT);
    expect(nextSource(LAST_RESORT, fallback)).toBeUndefined();
  });
  it("the last resort needs no request", () => {
    expect(LAST_RESORT.startsWith("data:image/svg+xml,")).toBe(true);
  });
});

describe("resourceFallbackIndex", () => {
  it("is stable and within the list", () => {
    for (const title of ["The SaaS Founder's Playbook", "Scaling Strategies", "", "ÜNÏCÖDÉ ✨"]) {
      const i = resourceFallbackIndex(title);
      expect(i).toBe(resourceFallbackIndex(title));
      expect(i).toBeGreaterThanOrEqual(0);
      expect(i).toBeLessThan(resourceFallbacks.length);
    }
  });
  it("spreads different titles over the list", () => {
    const titles = ["a", "b", "c", "d", "e", "f"];
    expect(new Set(titles.map((t) => resourceFallbackIndex(t))).size).toBe(6);
  });
});
