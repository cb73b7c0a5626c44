import { useEffect, useId, useRef, useState } from "react";
import { useUrlSearchParams } from "~/lib/url-search-params";
import { Search, SearchX } from "lucide-react";
import { categoryFilterOptions, resourceList, resources, sortOptions } from "~/content/resources";
import { ResourceCard } from "~/components/resources/resource-card";
import { buttonClass } from "~/components/ui/button";
import { earlyValue } from "~/lib/early-input";
import { useKeepTyped } from "~/lib/keep-typed";
import { useHydrated } from "~/lib/hydrated";
import { cn } from "~/lib/cn";
import {
  DEFAULT_QUERY,
  LOADING_DELAY_MS,
  SEARCH_DEBOUNCE_MS,
  applyResourceQuery,
  hasMorePages,
  isCategoryFilter,
  isSortOrder,
  parseResourceQuery,
  resourceQueryParams,
  sameQuery,
  visiblePage,
  type ResourceQuery,
} from "~/lib/resource-list";

const SKELETON_MIN = 3;

const fieldClass =
  "h-11 w-full rounded-lg border border-slate-300 bg-white text-slate-900 focus:border-brand-600 focus:outline-2 focus:outline-brand-600 dark:border-slate-600 dark:focus:border-brand-300 dark:focus:outline-brand-300 dark:bg-slate-950 dark:text-white";

/** earlyQuery is what the visitor typed or chose in the prerendered controls before this island ran (nothing on the server). */
function earlyQuery(ids: { search: string; category: string; sort: string }): Partial<ResourceQuery> {
  const q = earlyValue(ids.search);
  const category = earlyValue(ids.category);
  const sort = earlyValue(ids.sort);
  return {
    ...(q !== undefined ? { q } : {}),
    ...(isCategoryFilter(category) ? { category } : {}),
    ...(isSortOrder(sort) ? { sort } : {}),
  };
}

/**
 * ResourceBrowser is the searchable, filterable, sortable list of the hub
 * (docs/requirements.md#resource-list). The query lives in the URL
 * (?q=&category=&sort=); the search applies 300 ms after the last keystroke;
 * every change shows a loading state for 100 ms, then the results or the
 * empty state; six results per page.
 *
 * The page is prerendered without a query, so until hydration it shows the
 * default list; then it applies the URL's query at once, without the loading
 * state, so a shared or reloaded link lands on its filtered view. What was
 * typed or chosen before the island ran is kept and applied (lib/early-input.ts).
 *
 * It takes the resources from its module, not as props: props are written
 * into the page (11 KB of it for the whole list), which its first paint
 * would wait for; the module comes only when the visitor uses the list.
 */
export function ResourceBrowser() {
  const hydrated = useHydrated();
  const [searchParams, setSearchParams] = useUrlSearchParams();
  const urlQuery = hydrated ? parseResourceQuery(searchParams) : DEFAULT_QUERY;

  const ids = { search: useId(), category: useId(), sort: useId(), heading: useId() };
  // What the visitor typed or chose before this island ran: its first render shows it (so hydration
  // keeps it), then it applies like a change made after: the choices at once, the text after the debounce.
  const [early] = useState(() => earlyQuery(ids));
  const earlyPending = useRef(true);
  // What the selects show: the URL's query, and until it has them, the visitor's early choices.
  const choice = earlyPending.current ? { ...urlQuery, ...early } : urlQuery;

  // What the search box shows; it reaches the URL after the debounce.
  const [text, setText] = useState(early.q ?? "");
  // Typed before the island ran, or while it hydrated: that text goes to the URL, not the URL's to the box.
  const typedEarly = useRef(early.q !== undefined);
  useKeepTyped([ids.search], (_, typed) => {
    typedEarly.current = true;
    setText(typed);
  });
  const committedText = useRef<string | null>(null);
  // What the grid shows; it follows the URL after the loading state.
  const [shown, setShown] = useState<ResourceQuery>(DEFAULT_QUERY);
  const [loading, setLoading] = useState(false);
  const [pages, setPages] = useState(1);
  const applied = useRef(false);

  const listRef = useRef<HTMLUListElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const focusIndex = useRef<number | null>(null);

  // Merges a change into the URL's query as it is now. (It reads the address
  // bar rather than a render's searchParams: a debounced commit may run after
  // other changes that this render has not seen yet.)
  const commit = (change: Partial<ResourceQuery>) => {
    const current = parseResourceQuery(new URLSearchParams(window.location.search));
    const next = { ...current, ...change };
    if (sameQuery(current, next)) return;
    setSearchParams(resourceQueryParams(next));
  };

  // Nothing chosen before hydration is lost: it goes to the URL like a change made after.
  useEffect(() => {
    if (!hydrated) return;
    earlyPending.current = false;
    const { q: _text, ...choices } = early;
    if (Object.keys(choices).length > 0) commit(choices);
    // Once, when the island has taken over.
  }, [hydrated]);

  // The URL's search text changed from elsewhere (first load, Clear Filters): show it in the box,
  // unless the visitor typed before the island ran (that text goes to the URL after the debounce).
  useEffect(() => {
    if (!hydrated) return;
    if (committedText.current !== null && committedText.current === urlQuery.q.trim()) return;
    const firstLoad = committedText.current === null;
    committedText.current = urlQuery.q.trim();
    if (firstLoad && typedEarly.current) return;
    setText(urlQuery.q);
  }, [hydrated, urlQuery.q]);

  // Debounced search: the box's text goes to the URL 300 ms after the last keystroke.
  useEffect(() => {
    if (!hydrated || text.trim() === urlQuery.q.trim()) return;
    const timer = window.setTimeout(() => {
      committedText.current = text.trim();
      commit({ q: text.trim() });
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
    // commit only reads the latest URL through setSearchParams' updater.
  }, [hydrated, text, urlQuery.q]);

  // Any change of the URL's query: a short loading state, then the new results from the first page.
  const urlKey = resourceQueryParams(urlQuery).toString();
  useEffect(() => {
    if (!hydrated) return;
    if (!applied.current) {
      applied.current = true;
      setShown(urlQuery);
      return;
    }
    if (sameQuery(shown, urlQuery)) {
      setLoading(false);
      return;
    }
    setLoading(true);
    const timer = window.setTimeout(() => {
      setShown(urlQuery);
      setPages(1);
      setLoading(false);
    }, LOADING_DELAY_MS);
    return () => window.clearTimeout(timer);
    // urlKey stands for urlQuery; shown is read, not followed.
  }, [hydrated, urlKey]);

  const results = applyResourceQuery(resources, shown);
  const visible = visiblePage(results, pages);
  const more = hasMorePages(results.length, pages);

  // After 'Load More Resources', focus moves to the first newly shown card.
  useEffect(() => {
    const index = focusIndex.current;
    if (index === null) return;
    focusIndex.current = null;
    listRef.current?.querySelectorAll<HTMLAnchorElement>("a.card-link")[index]?.focus();
  }, [pages]);

  const loadMore = () => {
    focusIndex.current = visible.length;
    setPages((p) => p + 1);
  };

  // The button goes with the empty state it is in: focus moves to the search field, where a new search starts (not to <body>).
  const clearFilters = () => {
    setText("");
    committedText.current = "";
    commit({ q: "", category: "all" });
    searchRef.current?.focus();
  };

  const skeletons = Math.max(SKELETON_MIN, Math.min(visible.length, 6));

  return (
    <section aria-labelledby={ids.heading} className="py-16 sm:py-20">
      <div className="mx-auto max-w-6xl px-4 sm:px-6 lg:px-8">
        <h2 id={ids.heading} className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
          {resourceList.title}
        </h2>

        <form
          role="search"
          onSubmit={(e) => e.preventDefault()}
          className="mt-8 grid grid-cols-2 gap-4 sm:grid-cols-[1fr_auto_auto] sm:items-end"
        >
          <div className="col-span-2 sm:col-span-1">
            <label htmlFor={ids.search} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
              {resourceList.searchLabel}
            </label>
            <div className="relative mt-1.5">
              <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 text-slate-500 dark:text-slate-400" />
              <input
                id={ids.search}
                ref={searchRef}
                type="search"
                name="q"
                value={text}
                onChange={(e) => setText(e.target.value)}
                placeholder={resourceList.searchPlaceholder}
                autoComplete="off"
                className={`${fieldClass} pr-3 pl-10 placeholder:text-slate-500 dark:placeholder:text-slate-400`}
              />
            </div>
          </div>
          <div>
            <label htmlFor={ids.category} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
              {resourceList.categoryLabel}
            </label>
            <select
              id={ids.category}
              name="category"
              value={choice.category}
              onChange={(e) => isCategoryFilter(e.target.value) && commit({ category: e.target.value })}
              className={`${fieldClass} mt-1.5 px-3 sm:w-44`}
            >
              {categoryFilterOptions.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={ids.sort} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
              {resourceList.sortLabel}
            </label>
            <select
              id={ids.sort}
              name="sort"
              value={choice.sort}
              onChange={(e) => isSortOrder(e.target.value) && commit({ sort: e.target.value })}
              className={`${fieldClass} mt-1.5 px-3 sm:w-44`}
            >
              {sortOptions.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </div>
        </form>

        <p
          role="status"
          aria-live="polite"
          data-testid="resource-count"
          // The empty state says it already; screen readers still hear it here.
          className={cn("mt-6 text-sm text-slate-600 dark:text-slate-400", !loading && results.length === 0 && "sr-only")}
        >
          {loading ? resourceList.loading : resourceList.count(visible.length, results.length)}
        </p>

        <div className="mt-4">
          {loading ? (
            <ul data-testid="resources-loading" aria-hidden="true" className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {Array.from({ length: skeletons }, (_, i) => (
                <li key={i} className="animate-pulse overflow-hidden rounded-2xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
                  <div className="aspect-video bg-slate-200 dark:bg-slate-800" />
                  <div className="space-y-3 p-5">
                    <div className="h-4 w-1/3 rounded bg-slate-200 dark:bg-slate-800" />
                    <div className="h-5 w-5/6 rounded bg-slate-200 dark:bg-slate-800" />
                    <div className="h-4 w-full rounded bg-slate-200 dark:bg-slate-800" />
                    <div className="h-4 w-2/3 rounded bg-slate-200 dark:bg-slate-800" />
                  </div>
                </li>
              ))}
            </ul>
          ) : results.length === 0 ? (
            <div className="rounded-2xl border border-dashed border-slate-300 px-6 py-16 text-center dark:border-slate-700">
              <SearchX aria-hidden="true" className="mx-auto size-10 text-slate-400 dark:text-slate-500" />
              <h3 className="mt-4 text-lg font-semibold text-slate-900 dark:text-white">{resourceList.empty.title}</h3>
              <p className="mt-2 text-slate-600 dark:text-slate-300">{resourceList.empty.text}</p>
              <button type="button" onClick={clearFilters} className={buttonClass("secondary", "md", "mt-6")}>
                {resourceList.empty.clear}
              </button>
            </div>
          ) : (
            <>
              <ul ref={listRef} data-testid="resource-results" className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
                {visible.map((r) => (
                  <li key={r.slug}>
                    <ResourceCard resource={r} />
                  </li>
                ))}
              </ul>
              {more && (
                <div className="mt-10 text-center">
                  <button type="button" onClick={loadMore} className={buttonClass("secondary", "lg")}>
                    {resourceList.loadMore}
                  </button>
                </div>
              )}
            </>
          )}
        </div>
      </div>
    </section>
  );
}
