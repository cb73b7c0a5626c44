import { describe, expect, it } from "vitest";
import { MatchRank, buildSearchIndex, matchRank, normalize, searchIndex, searchSite, type SearchEntry } from "./search-index";
import { venturesSection } from "~/content/ventures";
import { routeTable } from "~/content/site-map";

const entry = (kind: SearchEntry["kind"], title: string, description = ""): SearchEntry => ({ kind, title, description, href: `/${title}` });

const index: SearchEntry[] = [
  { ...entry("resource", "Scaling strategies", "Growing from one to ten million"), author: "Elena Ruiz" },
  entry("page", "Service Packages", "Fixed prices for scaling your company"),
  entry("product", "Pulseboard", "Customer health scoring"),
  entry("venture", "HealthMonitor", "Remote patient monitoring"),
  entry("page", "Scale", "Step four"),
  entry("resource", "Tomás on pricing", "Usage-based pricing"),
];

const titles = (results: readonly SearchEntry[]) => results.map((r) => `${r.kind}: ${r.title}`);

describe("searchSite", () => {
  it("finds nothing for a blank query", () => {
    expect(searchSite(index, "")).toEqual([]);
    expect(searchSite(index, "   ")).toEqual([]);
  });

  it("matches title, description or author, any case", () => {
    expect(titles(searchSite(index, "HEALTH"))).toEqual(["venture: HealthMonitor", "product: Pulseboard"]);
    expect(titles(searchSite(index, "lena"))).toEqual(["resource: Scaling strategies"]);
  });

  it("needs every word, in any order, in title, description or author", () => {
    expect(titles(searchSite(index, "million scaling"))).toEqual(["resource: Scaling strategies"]);
    expect(titles(searchSite(index, "scaling elena"))).toEqual(["resource: Scaling strategies"]);
    expect(searchSite(index, "scaling kubernetes")).toEqual([]);
  });

  it("orders by where the query matches: the whole title, its start, a word of it, then elsewhere", () => {
    const ranked: SearchEntry[] = [
      entry("page", "Market pulse report", "A pulse of the market"), // a word of the title
      entry("resource", "Notes", "Reading the pulse"), // the description
      entry("page", "Pulseboard pricing", "Plans"), // the start of the title
      entry("product", "Pulse", "The product"), // the whole title
      entry("venture", "Heartpulse", "Wearables"), // inside a word of the title: elsewhere
      { ...entry("resource", "Interview", "A conversation"), author: "Ana Pulsen" }, // the author
    ];
    expect(searchSite(ranked, "pulse").map((r) => r.title)).toEqual(["Pulse", "Pulseboard pricing", "Market pulse report", "Notes", "Heartpulse", "Interview"]);
    expect(matchRank(ranked[3]!, "  PULSE ")).toBe(MatchRank.exactTitle);
    expect(matchRank(ranked[0]!, "report pul")).toBe(MatchRank.titleWord);
    expect(matchRank(ranked[1]!, "pulse")).toBe(MatchRank.elsewhere);
    expect(matchRank(ranked[1]!, "heart")).toBeUndefined();
  });

  it("keeps the index's order among results that match alike", () => {
    expect(titles(searchSite(index, "scal"))).toEqual(["resource: Scaling strategies", "page: Scale", "page: Service Packages"]);
  });

  it("ignores accents", () => {
    expect(normalize("Tomás")).toBe("tomas");
    expect(titles(searchSite(index, "tomas"))).toEqual(["resource: Tomás on pricing"]);
  });

  it("limits the results of each kind", () => {
    const many = [...Array.from({ length: 20 }, (_, i) => entry("resource", `Guide ${i}`)), entry("page", "Guides")];
    const found = searchSite(many, "guide", 5);
    expect(found.filter((r) => r.kind === "resource")).toHaveLength(5);
    expect(found.filter((r) => r.kind === "page")).toHaveLength(1);
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

  it("finds real content by title, description and author, the page a name stands for first", () => {
    const hrefs = (query: string) => searchSite(searchIndex, query).map((r) => r.href);
    expect(hrefs("aurion")).toEqual(["/products/aurion", "/studio/venture-portfolio#venture-aurion", "/", "/products"]);
    expect(hrefs("pitch deck")[0]).toBe("/resources/pitch-deck-template");
    expect(hrefs("playbook")[0]).toBe("/resources/saas-founders-playbook");
    expect(hrefs("data room")).toContain("/resources/building-for-exit-podcast");
    expect(hrefs("sofia lindqvist")).toEqual(["/resources/financial-model-template", "/resources/due-diligence-checklist"]);
  });
});
