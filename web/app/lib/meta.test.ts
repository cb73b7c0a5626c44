import { describe, expect, it } from "vitest";
import type { MetaDescriptor } from "./meta";
import { breadcrumbs, pageMeta } from "./meta";
import { article, faqPage, jsonLdText, product } from "./structured-data";
import { siteUrl } from "~/content/site";

const find = (tags: MetaDescriptor[], key: string, value: string) =>
  tags.find((t) => (t as Record<string, unknown>)[key] === value) as Record<string, string> | undefined;

describe("pageMeta", () => {
  const page = { title: "Service Packages", description: "Fixed prices." };

  it("gives title, description, canonical URL and share tags", () => {
    const tags = pageMeta(page, { path: "/studio/service-packages" });
    expect(tags).toContainEqual({ title: "Service Packages | Meridian Studio" });
    expect(tags).toContainEqual({ name: "description", content: "Fixed prices." });
    expect(tags).toContainEqual({ tagName: "link", rel: "canonical", href: `${siteUrl}/studio/service-packages` });
    expect(find(tags, "property", "og:url")?.content).toBe(`${siteUrl}/studio/service-packages`);
    expect(find(tags, "property", "og:image")?.content).toBe(`${siteUrl}/images/og/share.jpg`);
    expect(find(tags, "name", "twitter:card")?.content).toBe("summary_large_image");
  });

  it("keeps the home page's full title and its canonical is the root", () => {
    const tags = pageMeta({ title: "Meridian Studio – Build", description: "d" }, { path: "/", fullTitle: true });
    expect(tags).toContainEqual({ title: "Meridian Studio – Build" });
    expect(tags).toContainEqual({ tagName: "link", rel: "canonical", href: `${siteUrl}/` });
  });

  it("marks not-found pages noindex, without a canonical URL", () => {
    const tags = pageMeta({ title: "Page Not Found", description: "d" }, { path: "/404", noindex: true });
    expect(tags).toContainEqual({ name: "robots", content: "noindex" });
    expect(tags.some((t) => "rel" in t)).toBe(false);
  });
});

describe("breadcrumbs", () => {
  it.each([
    { path: "/", want: undefined },
    { path: "/studio", want: undefined },
    { path: "/studio/success-stories", want: ["Home", "Studio", "Success Stories"] },
    { path: "/legal/terms", want: ["Home", "Success Stories"] },
    { path: "/resources/ai-in-saas", want: ["Home", "Resources", "Success Stories"] },
  ])("$path", ({ path, want }) => {
    const doc = breadcrumbs(path, "Success Stories") as { itemListElement: { name: string; position: number; item: string }[] } | undefined;
    expect(doc?.itemListElement.map((i) => i.name)).toEqual(want);
    if (doc) expect(doc.itemListElement.at(-1)!.item).toBe(siteUrl + path);
  });
});

describe("structured data", () => {
  it("offers only plans with a fixed price", () => {
    const doc = product({
      name: "AURION",
      description: "d",
      image: "/a.svg",
      path: "/products/aurion",
      plans: [
        { id: "demo", name: "Demo", price: "Free", priceAmount: 0, description: "", features: [], buttonText: "", buttonLink: "", mostPopular: false },
        { id: "pro", name: "Professional", price: "$299", priceAmount: 299, description: "", features: [], buttonText: "", buttonLink: "", mostPopular: true },
        { id: "ent", name: "Enterprise", price: "Custom", description: "", features: [], buttonText: "", buttonLink: "", mostPopular: false },
      ],
    }) as { offers: { name: string; price: string; priceCurrency: string }[] };
    expect(doc.offers.map((o) => [o.name, o.price, o.priceCurrency])).toEqual([
      ["Demo", "0", "USD"],
      ["Professional", "299", "USD"],
    ]);
  });

  it("FAQ questions and answers", () => {
    const doc = faqPage([{ id: "a", question: "Q?", answer: "A." }]) as { mainEntity: { name: string; acceptedAnswer: { text: string } }[] };
    expect(doc.mainEntity[0]).toMatchObject({ name: "Q?", acceptedAnswer: { text: "A." } });
  });

  it("articles carry headline, date and author", () => {
    const doc = article({ title: "T", description: "D", image: "/i.svg", date: "2025-03-01", author: "Sarah", path: "/resources/x" });
    expect(doc).toMatchObject({ "@type": "Article", headline: "T", datePublished: "2025-03-01", author: { name: "Sarah" } });
  });

  it("inline JSON cannot close its script element", () => {
    expect(jsonLdText({ x: "</script><script>alert(1)</script>" })).not.toContain("</script>");
  });
});
