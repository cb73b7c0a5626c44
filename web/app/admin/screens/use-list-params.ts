/** useListParams is a list screen's search, filter and page, kept in the URL's query (route.ts). */
import { useCallback } from "react";
import { listSearch, readListParams, type ListParams } from "../route";
import { navigate, useLocation } from "../router";
import { normalizeSearch } from "../data/search";

export type ListParamsState<F extends string> = ReturnType<typeof useListParams<F>>;

export function useListParams<F extends string>(filters: readonly [F, ...F[]]) {
  const { pathname, search } = useLocation();
  const params = readListParams(search, filters);
  const go = useCallback(
    (next: ListParams<F>, replace = false) => navigate(pathname + listSearch(next, filters[0]), { replace }),
    [pathname, filters],
  );
  return {
    params,
    /** A new search replaces the history entry (typing is not a step to go Back to) and starts at page 1. */
    setQuery: (q: string) => go({ ...params, q: normalizeSearch(q), page: 1 }, true),
    setFilter: (filter: F) => go({ ...params, filter, page: 1 }),
    setPage: (page: number, replace = false) => go({ ...params, page }, replace),
  };
}
