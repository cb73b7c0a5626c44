/**
 * Search terms as PostgREST filters: a case-insensitive substring match on
 * any of some columns, as one or=(…) filter (supabase-js .or()).
 */

/** Characters that PostgREST's filter grammar reserves inside or=(…), which a value must be quoted to hold. */
const RESERVED = /[,.:()"\\]/;

/**
 * quoteValue makes a filter value safe inside or=(…): reserved characters
 * are kept by double-quoting the value (backslash-escaping " and \), as
 * PostgREST reads it.
 */
export function quoteValue(value: string): string {
  if (!RESERVED.test(value)) return value;
  return `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/** normalizeSearch trims a search box's text and collapses runs of white space. */
export function normalizeSearch(q: string): string {
  return q.trim().replace(/\s+/g, " ");
}

/**
 * ilikeAny is the or=(…) filter body matching q anywhere in any of the
 * columns, case-insensitively: "name.ilike.*q*,email.ilike.*q*". A * or %
 * typed in the search is dropped (PostgREST reads * as LIKE's %, and a
 * wildcard typed by hand would match everything).
 */
export function ilikeAny(columns: readonly string[], q: string): string {
  const term = normalizeSearch(q).replace(/[*%]/g, "");
  const pattern = quoteValue(`*${term}*`);
  return columns.map((c) => `${c}.ilike.${pattern}`).join(",");
}
