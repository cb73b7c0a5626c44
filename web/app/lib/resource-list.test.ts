import { describe, expect, it } from "vitest";
import {
  DEFAULT_QUERY,
  LOADING_DELAY_MS,
  PAGE_SIZE,
  SEARCH_DEBOUNCE_MS,
  applyResourceQuery,
  hasMorePages,
  matchesSearch,
  parseResourceQuery,
  resourceQueryParams,
  sameQuery,
  sortResources,
  visiblePage,
  type Listable,
  type ResourceQuery,
} from "./resource-list";
import { resources } from "~/content/resources";

const item = (title: string, over: Partial<Listable> = {}): Listable => ({
  title,
  description: `About ${title}`,
  author: "Ann Author",
  category: "blog",
  date: "2025-01-01",
  ...over,
});

const list: Listable[] = [
  item("Pricing Pages", { date: "2025-03-01", author: "Priya Natarajan" }),
  item("Exit Podcast", { category: "podcast", date: "2024-11-05", description: "Selling a company" }),
  item("Cash Model", { category: "template", date: "2025-01-20" }),
  item("Founder Guide", { category: "guide", date: "2024-06-30" }),
  item("Churn", { date: "2025-03-01" }),
];

const titles = (items: readonly Listable[]) => items.map((i) => i.title);
const query = (over: Partial<ResourceQuery>): ResourceQuery => ({ ...DEFAULT_QUERY, ...over });

describe("the constants of the requirements", () => {
  it("debounces 300 ms, loads 100 ms, pages by 6", () => {
    expect(SEARCH_DEBOUNCE_MS).toBe(300);
    expect(LOADING_DELAY_MS).toBe(100);
    expect(PAGE_SIZE).toBe(6);
  });
});

describe("matchesSearch", () => {
  it.each([
    { name: "title, any case", q: "pRiCiNg", want: true },
    { name: "description", q: "selling a", want: true },
    { name: "author", q: "natarajan", want: true },
    { name: "surrounding spaces ignored", q: "  churn ", want: true },
    { name: "empty search matches all", q: "", want: true },
    { name: "blank search matches all", q: "   ", want: true },
    { name: "no field contains it", q: "kubernetes", want: false },
    { name: "category is not searched", q: "template", want: false },
  ])("$name", ({ q, want }) => {
    expect(list.some((i) => matchesSearch(i, q))).toBe(want);
  });

  it("matches only the items that contain the text", () => {
    expect(titles(list.filter((i) => matchesSearch(i, "natarajan")))).toEqual(["Pricing Pages"]);
  });
});

describe("sortResources", () => {
  it("newest first, equal dates by title", () => {
    expect(titles(sortResources(list, "newest"))).toEqual(["Churn", "Pricing Pages", "Cash Model", "Exit Podcast", "Founder Guide"]);
  });
  it("oldest first, equal dates by title", () => {
    expect(titles(sortResources(list, "oldest"))).toEqual(["Founder Guide", "Exit Podcast", "Cash Model", "Churn", "Pricing Pages"]);
  });
  it("does not change its input", () => {
    const before = titles(list);
    sortResources(list, "oldest");
    expect(titles(list)).toEqual(before);
  });
});

describe("applyResourceQuery", () => {
  it.each([
    { name: "defaults: everything, newest first", q: {}, want: ["Churn", "Pricing Pages", "Cash Model", "Exit Podcast", "Founder Guide"] },
    { name: "category blog", q: { category: "blog" }, want: ["Churn", "Pricing Pages"] },
    { name: "category podcast", q: { category: "podcast" }, want: ["Exit Podcast"] },
    { name: "category template", q: { category: "template" }, want: ["Cash Model"] },
    { name: "category guide", q: { category: "guide" }, want: ["Founder Guide"] },
    { name: "search and category together", q: { q: "about", category: "blog", sort: "oldest" }, want: ["Churn", "Pricing Pages"] },
    { name: "search that finds nothing", q: { q: "zzz" }, want: [] },
    { name: "search in a category without it", q: { q: "cash", category: "guide" }, want: [] },
  ] satisfies { name: string; q: Partial<ResourceQuery>; want: string[] }[])("$name", ({ q, want }) => {
    expect(titles(applyResourceQuery(list, query(q)))).toEqual(want);
  });

  it("on the real content: 13 resources, 4 articles, 4 episodes, 4 templates, 1 guide", () => {
    expect(applyResourceQuery(resources, DEFAULT_QUERY)).toHaveLength(13);
    expect(applyResourceQuery(resources, query({ category: "blog" }))).toHaveLength(4);
    expect(applyResourceQuery(resources, query({ category: "podcast" }))).toHaveLength(4);
    expect(applyResourceQuery(resources, query({ category: "template" }))).toHaveLength(4);
    expect(applyResourceQuery(resources, query({ category: "guide" }))).toHaveLength(1);
  });
});

describe("paging", () => {
  const many = Array.from({ length: 13 }, (_, i) => i);
  it.each([
    { pages: 1, shown: 6, more: true },
    { pages: 2, shown: 12, more: true },
    { pages: 3, shown: 13, more: false },
    { pages: 4, shown: 13, more: false },
    { pages: 0, shown: 6, more: true },
  ])("after $pages page(s): $shown shown, more=$more", ({ pages, shown, more }) => {
    expect(visiblePage(many, pages)).toHaveLength(shown);
    expect(hasMorePages(many.length, pages)).toBe(more);
  });
  it("an exact multiple of the page size has no further page", () => {
    expect(hasMorePages(6, 1)).toBe(false);
    expect(hasMorePages(12, 2)).toBe(false);
    expect(hasMorePages(0, 1)).toBe(false);
  });
});

describe("the URL query", () => {
  it.each([
    { name: "empty", search: "", want: DEFAULT_QUERY },
    { name: "all three", search: "q=exit&category=podcast&sort=oldest", want: { q: "exit", category: "podcast", sort: "oldest" } },
    { name: "unknown category and sort fall back", search: "category=videos&sort=random", want: DEFAULT_QUERY },
    { name: "encoded search text", search: "q=%24%201M%20ARR", want: { ...DEFAULT_QUERY, q: "$ 1M ARR" } },
  ])("parses $name", ({ search, want }) => {
    expect(parseResourceQuery(new URLSearchParams(search))).toEqual(want);
  });

  it("writes only what differs from the default", () => {
    expect(resourceQueryParams(DEFAULT_QUERY).toString()).toBe("");
    expect(resourceQueryParams(query({ q: "  " })).toString()).toBe("");
    expect(resourceQueryParams(query({ q: "saas growth", category: "blog", sort: "oldest" })).toString()).toBe(
      "q=saas+growth&category=blog&sort=oldest",
    );
  });

  it("round-trips", () => {
    for (const q of [DEFAULT_QUERY, query({ q: "exit & scale", category: "template" }), query({ sort: "oldest" })]) {
      expect(parseResourceQuery(resourceQueryParams(q))).toEqual(q);
    }
  });

  it("sameQuery ignores surrounding spaces of the search only", () => {
    expect(sameQuery(query({ q: " exit " }), query({ q: "exit" }))).toBe(true);
    expect(sameQuery(query({ q: "exit" }), query({ q: "exits" }))).toBe(false);
    expect(sameQuery(query({ category: "blog" }), DEFAULT_QUERY)).toBe(false);
    expect(sameQuery(query({ sort: "oldest" }), DEFAULT_QUERY)).toBe(false);
  });
});
