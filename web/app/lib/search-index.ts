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
  /** Who wrote it (resources): searched like the description. */
  readonly author?: string;
  readonly href: string;
};

/** The order of the kinds in the index: among results that match alike, pages come first, then products, ventures, resources. */
export const searchKinds: readonly SearchKind[] = ["page", "product", "venture", "resource"];

/** Results of one kind shown at most. */
export const KIND_LIMIT = 8;

/** buildSearchIndex lists everything the search can find, by kind in searchKinds' order. */
export function buildSearchIndex(): SearchEntry[] {
  return [
    ...routeTable.map((href) => ({ kind: "page" as const, href, ...searchPages[href] })),
    ...products.map((p) => ({ kind: "product" as const, title: p.name, description: p.description, href: `/products/${p.id}` })),
    ...venturesSection.ventures.map((v) => ({ kind: "venture" as const, title: v.name, description: v.description, href: ventureAnchor(v.name) })),
    ...resources.map((r) => ({ kind: "resource" as const, title: r.title, description: r.description, author: r.author, href: r.url })),
  ];
}

export const searchIndex: readonly SearchEntry[] = buildSearchIndex();

/** normalize lower-cases and strips accents, so "Tomas" finds "Tomás". */
export function normalize(text: string): string {
  return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLocaleLowerCase("en");
}

/** Where the query matches an entry, best first (matchRank). */
export const MatchRank = { exactTitle: 0, titleStart: 1, titleWord: 2, elsewhere: 3 } as const;

/**
 * matchRank says where the query matches the entry, or undefined when it
 * does not: every word of the query must occur in the title, the description
 * or the author (case- and accent-insensitive). Then the title is the query
 * (exactTitle), starts with it (titleStart), has a word starting with each of
 * its words (titleWord), or the match is elsewhere (description, author, the
 * middle of a title's word).
 */
export function matchRank(entry: SearchEntry, query: string): number | undefined {
  const phrase = normalize(query).trim().replace(/\s+/g, " ");
  if (phrase === "") return undefined;
  const words = phrase.split(" ");
  const title = normalize(entry.title).trim().replace(/\s+/g, " ");
  const text = [title, normalize(entry.description), normalize(entry.author ?? "")].join(" ");
  if (!words.every((w) => text.includes(w))) return undefined;
  if (title === phrase) return MatchRank.exactTitle;
  if (title.startsWith(phrase)) return MatchRank.titleStart;
  const titleWords = title.split(/[^\p{L}\p{N}]+/u);
  if (words.every((w) => titleWords.some((t) => t.startsWith(w)))) return MatchRank.titleWord;
  return MatchRank.elsewhere;
}

/**
 * searchSite lists the entries the query matches, best match first
 * (matchRank); entries that match alike keep the index's order. At most
 * limit results of each kind. A blank query finds nothing.
 */
export function searchSite(index: readonly SearchEntry[], query: string, limit = KIND_LIMIT): SearchEntry[] {
  const ranked = index.flatMap((entry, order) => {
    const rank = matchRank(entry, query);
    return rank === undefined ? [] : [{ entry, order, rank }];
  });
  ranked.sort((a, b) => a.rank - b.rank || a.order - b.order);
  const perKind = new Map<SearchKind, number>();
  return ranked
    .filter(({ entry }) => {
      const count = (perKind.get(entry.kind) ?? 0) + 1;
      perKind.set(entry.kind, count);
      return count <= limit;
    })
    .map(({ entry }) => entry);
}
