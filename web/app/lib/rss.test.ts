import { describe, expect, it } from "vitest";
import { escapeXml, rfc822Date, rssFeed } from "./rss";
import { resources } from "~/content/resources";

describe("rssFeed", () => {
  const xml = rssFeed(resources, "https://meridian.example");
  const doc = new DOMParser().parseFromString(xml, "application/xml");

  it("is well-formed RSS 2.0", () => {
    expect(doc.querySelector("parsererror")).toBeNull();
    expect(doc.documentElement.nodeName).toBe("rss");
    expect(doc.documentElement.getAttribute("version")).toBe("2.0");
    expect(doc.querySelector("channel > title")?.textContent).toBeTruthy();
  });

  it("has the articles, the guide and the episodes, newest first, not the templates", () => {
    const items = [...doc.querySelectorAll("item")];
    expect(items).toHaveLength(9);
    expect(items.map((i) => i.querySelector("category")?.textContent).sort()).toEqual(
      ["Article", "Article", "Article", "Article", "Guide", "Podcast", "Podcast", "Podcast", "Podcast"],
    );
    const dates = items.map((i) => Date.parse(i.querySelector("pubDate")!.textContent!));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
  });

  it("links absolutely, from the given origin", () => {
    for (const link of doc.querySelectorAll("item > link, item > guid, channel > link")) {
      expect(link.textContent).toMatch(/^https:\/\/meridian\.example\/resources(\/[a-z0-9-]+)?$/);
    }
    expect(doc.querySelector("channel > link")?.textContent).toBe("https://meridian.example/resources");
  });

  it("escapes text", () => {
    expect(escapeXml(`Tom & "Jerry's" <b>`)).toBe("Tom &amp; &quot;Jerry&apos;s&quot; &lt;b&gt;");
    expect(xml).toContain("The SaaS Founder&apos;s Playbook");
  });

  it("dates are RFC 822, and a bad date throws", () => {
    expect(rfc822Date("2025-04-22")).toBe("Tue, 22 Apr 2025 00:00:00 GMT");
    expect(() => rfc822Date("April 22")).toThrow();
  });
});
