/**
 * The site-wide search: an index of pages, products, ventures and resources,
 * made from the content modules when the bundle is built, and the matching
 * the dialog does as the visitor types. Loaded only with the search dialog
 * (a dynamic import), so it never adds to a page's first load.
 */
import { products } from "~/content/products";
import { resources } from "~/content/resources";
import { searchPages } from "~/content/search";
import { routeTable } from "~/content/site-map";
import { ventureAnchor, venturesSection } from "~/content/ventures";

export type SearchKind = "page" | "product" | "venture" | "resource";

export type SearchEntry = {
  readonly kind: SearchKind;
  readonly title: string;
  readonly description: string;
  readonly href: string;
};

export type SearchGroup = { readonly kind: SearchKind; readonly results: readonly SearchEntry[] };

/** The order of the groups in the dialog. */
export const searchKinds: readonly SearchKind[] = ["page", "product", "venture", "resource"];

/** Results shown per group at most. */
export const GROUP_LIMIT = 8;


/** buildSearchIndex lists everything the search can find, grouped by kind in searchKinds' order. */
export function buildSearchIndex(): SearchEntry[] {
  return [
    ...routeTable.map((href) => ({ kind: "page" as const, href, ...searchPages[href] })),
    ...products.map((p) => ({ kind: "product" as const, title: p.name, description: p.description, href: `/products/${p.id}` })),
    ...venturesSection.ventures.map((v) => ({ kind: "venture" as const, title: v.name, description: v.description, href: ventureAnchor(v.name) })),
    ...resources.map((r) => ({ kind: "resource" as const, title: r.title, description: r.description, href: r.url })),
  ];
}

export const searchIndex: readonly SearchEntry[] = buildSearchIndex();

/** normalize lower-cases and strips accents, so "Tomas" finds "Tomás". */
export function normalize(text: string): string {
  return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLocaleLowerCase("en");
}

/**
 * searchSite finds the entries whose title or description contains every
 * word of the query (case- and accent-insensitive), best first: title starts
 * with the query, then title contains it, then every word in the title, then
 * the rest; ties keep the index order. Results are grouped by kind, in
 * searchKinds' order, empty groups left out. A blank query finds nothing.
 */
export function searchSite(index: readonly SearchEntry[], query: string, limit = GROUP_LIMIT): SearchGroup[] {
  const phrase = normalize(query).trim().replace(/\s+/g, " ");
  if (phrase === "") return [];
  const words = phrase.split(" ");
  const scored = index.flatMap((entry, order) => {
    const title = normalize(entry.title);
    const text = `${title} ${normalize(entry.description)}`;
    if (!words.every((w) => text.includes(w))) return [];
    const score = title.startsWith(phrase) ? 3 : title.includes(phrase) ? 2 : words.every((w) => title.includes(w)) ? 1 : 0;
    return [{ entry, order, score }];
  });
  scored.sort((a, b) => b.score - a.score || a.order - b.order);
  return searchKinds
    .map((kind) => ({ kind, results: scored.filter((s) => s.entry.kind === kind).slice(0, limit).map((s) => s.entry) }))
    .filter((g) => g.results.length > 0);
}
