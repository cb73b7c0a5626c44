import { describe, expect, it } from "vitest";
import { findProduct, isLive, products, statusBadge } from "./products";

describe("products", () => {
  it("are aurion (live), saas-2 and saas-3 (coming soon)", () => {
    expect(products.map((p) => [p.id, p.status])).toEqual([
      ["aurion", "live"],
      ["saas-2", "coming-soon"],
      ["saas-3", "coming-soon"],
    ]);
  });

  it("findProduct finds the three ids and nothing else (not the ventures)", () => {
    expect(findProduct("aurion")?.name).toBe("AURION");
    expect(findProduct("saas-3")?.id).toBe("saas-3");
    for (const id of [undefined, "", "datasync", "AURION", "404", "products"]) expect(findProduct(id)).toBeUndefined();
  });

  it("live mode for aurion only, coming-soon mode for the others", () => {
    expect(products.filter(isLive).map((p) => p.id)).toEqual(["aurion"]);
  });

  it("maps each status to its badge: Live green, Coming Soon yellow, In Development blue", () => {
    expect(statusBadge("live")).toEqual({ label: "Live", tone: "green" });
    expect(statusBadge("coming-soon")).toEqual({ label: "Coming Soon", tone: "yellow" });
    expect(statusBadge("in-development")).toEqual({ label: "In Development", tone: "blue" });
  });

  it("AURION has 6 features, 3 five-star testimonials, the three plans of its pricing and a FAQ", () => {
    const aurion = findProduct("aurion");
    if (!aurion || !isLive(aurion)) throw new Error("aurion is not live");
    expect(aurion.features).toHaveLength(6);
    expect(aurion.testimonials.map((t) => t.rating)).toEqual([5, 5, 5]);
    expect(aurion.pricing.map((p) => [p.name, p.price + (p.period ?? ""), p.mostPopular])).toEqual([
      ["Demo", "Free", false],
      ["Professional", "$299/year", true],
      ["Enterprise", "Custom", false],
    ]);
    expect(new Set(aurion.faq.map((f) => f.id)).size).toBe(aurion.faq.length);
  });
});
