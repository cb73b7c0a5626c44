/**
 * The logic of the resource list on /resources
 * (docs/requirements.md#resource-list): search, category filter, sort, paging,
 * and the URL query that keeps a filtered view across reloads. Pure functions; the page only wires them up.
 */
import type { ResourceCategory } from "~/content/resources";

export type CategoryFilter = "all" | ResourceCategory;
export type SortOrder = "newest" | "oldest";

/** ResourceQuery is what the visitor asked for: ?q=&category=&sort= in the URL. */
export type ResourceQuery = { readonly q: string; readonly category: CategoryFilter; readonly sort: SortOrder };

/** The fields of a resource the list works on. */
export type Listable = {
  readonly title: string;
  readonly description: string;
  readonly author: string;
  readonly category: ResourceCategory;
  /** ISO date, YYYY-MM-DD. */
  readonly date: string;
};

export const DEFAULT_QUERY: ResourceQuery = { q: "", category: "all", sort: "newest" };

/** Results shown per page; 'Load More Resources' reveals the next page. */
export const PAGE_SIZE = 6;
/** The search applies this long after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 300;
/** The loading state shown after any change of search, category or sort. */
export const LOADING_DELAY_MS = 100;

const categories: readonly CategoryFilter[] = ["all", "blog", "podcast", "template", "guide"];
const sorts: readonly SortOrder[] = ["newest", "oldest"];

export function isCategoryFilter(value: unknown): value is CategoryFilter {
  return categories.includes(value as CategoryFilter);
}

export function isSortOrder(value: unknown): value is SortOrder {
  return sorts.includes(value as SortOrder);
}

/** parseResourceQuery reads the query from a URL; missing or unknown values fall back to the defaults. */
export function parseResourceQuery(params: URLSearchParams): ResourceQuery {
  const category = params.get("category");
  const sort = params.get("sort");
  return {
    q: params.get("q") ?? "",
    category: isCategoryFilter(category) ? category : DEFAULT_QUERY.category,
    sort: isSortOrder(sort) ? sort : DEFAULT_QUERY.sort,
  };
}

/** resourceQueryParams writes the query for a URL, leaving out what equals the default. */
export function resourceQueryParams(query: ResourceQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.q.trim() !== "") params.set("q", query.q);
  if (query.category !== DEFAULT_QUERY.category) params.set("category", query.category);
  if (query.sort !== DEFAULT_QUERY.sort) params.set("sort", query.sort);
  return params;
}

export function sameQuery(a: ResourceQuery, b: ResourceQuery): boolean {
  return a.q.trim() === b.q.trim() && a.category === b.category && a.sort === b.sort;
}

/** matchesSearch: the search text occurs, case-insensitively, in the title, the description or the author. */
export function matchesSearch(item: Listable, search: string): boolean {
  const needle = search.trim().toLocaleLowerCase("en");
  if (needle === "") return true;
  return [item.title, item.description, item.author].some((field) => field.toLocaleLowerCase("en").includes(needle));
}

/** sortResources orders by date, newest or oldest first; equal dates by title, so the order is stable. */
export function sortResources<T extends Listable>(items: readonly T[], sort: SortOrder): T[] {
  const direction = sort === "newest" ? -1 : 1;
  return [...items].sort((a, b) => {
    if (a.date !== b.date) return a.date < b.date ? -direction : direction;
    return a.title.localeCompare(b.title, "en");
  });
}

/** applyResourceQuery is the full result list of a query: searched, filtered by category, sorted. */
export function applyResourceQuery<T extends Listable>(items: readonly T[], query: ResourceQuery): T[] {
  const found = items.filter(
    (item) => (query.category === "all" || item.category === query.category) && matchesSearch(item, query.q),
  );
  return sortResources(found, query.sort);
}

/** visiblePage is what the list shows after `pages` pages (the first page is 1). */
export function visiblePage<T>(results: readonly T[], pages: number): T[] {
  return results.slice(0, Math.max(1, pages) * PAGE_SIZE);
}

/** hasMorePages says whether 'Load More Resources' has anything left to reveal. */
export function hasMorePages(total: number, pages: number): boolean {
  return total > Math.max(1, pages) * PAGE_SIZE;
}
