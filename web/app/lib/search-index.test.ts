import { describe, expect, it } from "vitest";
import { buildSearchIndex, normalize, searchIndex, searchSite, type SearchEntry } from "./search-index";
import { venturesSection } from "~/content/ventures";
import { routeTable } from "~/content/site-map";

const entry = (kind: SearchEntry["kind"], title: string, description = ""): SearchEntry => ({ kind, title, description, href: `/${title}` });

const index: SearchEntry[] = [
  entry("resource", "Scaling strategies", "Growing from one to ten million"),
  entry("page", "Service Packages", "Fixed prices for scaling your company"),
  entry("product", "Pulseboard", "Customer health scoring"),
  entry("venture", "HealthMonitor", "Remote patient monitoring"),
  entry("page", "Scale", "Step four"),
  entry("resource", "Tomás on pricing", "Usage-based pricing"),
];

const titles = (groups: ReturnType<typeof searchSite>) => groups.map((g) => `${g.kind}: ${g.results.map((r) => r.title).join(", ")}`);

describe("searchSite", () => {
  it("finds nothing for a blank query", () => {
    expect(searchSite(index, "")).toEqual([]);
    expect(searchSite(index, "   ")).toEqual([]);
  });

  it("matches title or description, any case, grouped in the order pages, products, ventures, resources", () => {
    expect(titles(searchSite(index, "HEALTH"))).toEqual(["product: Pulseboard", "venture: HealthMonitor"]);
    expect(titles(searchSite(index, "scal"))).toEqual(["page: Scale, Service Packages", "resource: Scaling strategies"]);
  });

  it("needs every word, in any order, in title or description", () => {
    expect(titles(searchSite(index, "million scaling"))).toEqual(["resource: Scaling strategies"]);
    expect(searchSite(index, "scaling kubernetes")).toEqual([]);
  });

  it("ranks title matches above description matches", () => {
    const pages = searchSite(index, "scal")[0]!;
    expect(pages.results.map((r) => r.title)).toEqual(["Scale", "Service Packages"]);
  });

  it("ignores accents", () => {
    expect(normalize("Tomás")).toBe("tomas");
    expect(titles(searchSite(index, "tomas"))).toEqual(["resource: Tomás on pricing"]);
  });

  it("limits each group", () => {
    const many = Array.from({ length: 20 }, (_, i) => entry("resource", `Guide ${i}`));
    expect(searchSite(many, "guide", 5)[0]!.results).toHaveLength(5);
  });
});

describe("the site's index", () => {
  it("has every page of the route table, the products, six ventures and the thirteen resources", () => {
    const byKind = (k: string) => searchIndex.filter((e) => e.kind === k);
    expect(byKind("page").map((e) => e.href)).toEqual([...routeTable]);
    expect(byKind("product").map((e) => e.href)).toEqual(["/products/aurion", "/products/saas-2", "/products/saas-3"]);
    expect(byKind("venture").map((e) => e.title.toLowerCase())).toEqual(["aurion", "datasync", "cryptotrack", "healthmonitor", "learnhub", "legalflow"]);
    expect(byKind("venture").map((e) => e.href)).toEqual(byKind("venture").map((e) => `/studio/venture-portfolio#venture-${e.title.toLowerCase()}`));
    expect(byKind("resource")).toHaveLength(13);
    expect(venturesSection.ventures).toHaveLength(6);
    for (const e of buildSearchIndex()) {
      expect(e.title.trim(), e.href).not.toBe("");
      expect(e.description.trim(), e.href).not.toBe("");
    }
  });

  it("finds real content by title and by description", () => {
    expect(titles(searchSite(searchIndex, "aurion"))[0]).toBe("page: Home, Our SaaS Portfolio");
    const groups = searchSite(searchIndex, "aurion").map((g) => g.kind);
    expect(groups).toEqual(["page", "product", "venture"]);
    expect(searchSite(searchIndex, "playbook").find((g) => g.kind === "resource")?.results[0]?.href).toBe("/resources/saas-founders-playbook");
    expect(searchSite(searchIndex, "data room").flatMap((g) => g.results.map((r) => r.href))).toContain("/resources/building-for-exit-podcast");
  });
});
