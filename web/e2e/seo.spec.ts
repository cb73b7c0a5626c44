import { test, expect } from "./fixtures";
import { prerenderPaths } from "../app/content/site-map";
import { siteUrl } from "../app/content/site";

/** The pages as prerendered HTML, before any script runs: what a crawler sees. */
const pages = prerenderPaths().filter((p) => !/\.\w+$/.test(p) && !p.endsWith("/404"));

type JsonLd = { "@type": string; [k: string]: unknown };

async function head(request: import("@playwright/test").APIRequestContext, path: string) {
  const response = await request.get(path);
  const html = await response.text();
  const meta = (attr: string, name: string) => html.match(new RegExp(`<meta ${attr}="${name}" content="([^"]*)"`))?.[1];
  const jsonLd = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map((m) => JSON.parse(m[1]!) as JsonLd);
  return { response, html, meta, jsonLd };
}

test.describe("search engines and sharing", () => {
  for (const path of pages) {
    test(`${path}: title, description, canonical, share tags, Organization`, async ({ request }) => {
      const { response, html, meta, jsonLd } = await head(request, path);
      expect(response.status()).toBe(200);
      expect(html).toMatch(/^<!DOCTYPE html><html lang="en"/);
      expect(html).toMatch(/<title>[^<]{5,}<\/title>/);
      expect(meta("name", "description")?.length).toBeGreaterThan(20);
      expect(html).toContain(`<link rel="canonical" href="${siteUrl}${path === "/" ? "/" : path}">`);
      expect(meta("property", "og:url")).toBe(`${siteUrl}${path === "/" ? "/" : path}`);
      for (const p of ["og:title", "og:description", "og:image", "og:type"]) expect(meta("property", p), p).toBeTruthy();
      for (const n of ["twitter:card", "twitter:title", "twitter:description", "twitter:image"]) expect(meta("name", n), n).toBeTruthy();
      expect(jsonLd.map((d) => d["@type"])).toContain("Organization");
      const nested = path.split("/").filter(Boolean).length > 1;
      expect(jsonLd.some((d) => d["@type"] === "BreadcrumbList")).toBe(nested);
    });
  }

  test("the share image is served at 1200×630", async ({ request }) => {
    const { meta } = await head(request, "/");
    const image = await request.get(meta("property", "og:image")!.replace(siteUrl, ""));
    expect(image.status()).toBe(200);
    expect(image.headers()["content-type"]).toBe("image/jpeg");
    expect(meta("property", "og:image:width")).toBe("1200");
    expect(meta("property", "og:image:height")).toBe("630");
  });

  test("AURION has a Product with Offers and an FAQPage", async ({ request }) => {
    const { jsonLd } = await head(request, "/products/aurion");
    const product = jsonLd.find((d) => d["@type"] === "Product") as unknown as { name: string; offers: { price: string }[] };
    expect(product.name).toBe("AURION");
    expect(product.offers.map((o) => o.price)).toEqual(["0", "299"]);
    expect(jsonLd.some((d) => d["@type"] === "FAQPage")).toBe(true);
  });

  test("the service packages page has an FAQPage with its five questions", async ({ request }) => {
    const { jsonLd } = await head(request, "/studio/service-packages");
    const faq = jsonLd.find((d) => d["@type"] === "FAQPage") as unknown as { mainEntity: unknown[] };
    expect(faq.mainEntity).toHaveLength(5);
  });

  test("articles have an Article; episodes and templates do not", async ({ request }) => {
    expect((await head(request, "/resources/scaling-strategies")).jsonLd.map((d) => d["@type"])).toContain("Article");
    expect((await head(request, "/resources/building-for-exit-podcast")).jsonLd.map((d) => d["@type"])).not.toContain("Article");
  });

  test("not-found pages keep their 404 status and are not indexed", async ({ request }) => {
    for (const path of ["/no-such-page", "/products/datasync", "/resources/no-such-guide"]) {
      const { response, meta, html } = await head(request, path);
      expect(response.status(), path).toBe(404);
      expect(meta("name", "robots"), path).toBe("noindex");
      expect(html, path).not.toContain('rel="canonical"');
    }
  });

  test("sitemap.xml lists every public page with absolute URLs; robots.txt points to it", async ({ request }) => {
    const sitemap = await request.get("/sitemap.xml");
    expect(sitemap.status()).toBe(200);
    const locs = [...(await sitemap.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(new Set(locs)).toEqual(new Set(pages.map((p) => siteUrl + p)));
    const robots = await (await request.get("/robots.txt")).text();
    expect(robots).toContain(`Sitemap: ${siteUrl}/sitemap.xml`);
  });
});
