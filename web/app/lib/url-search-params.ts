import { useCallback, useSyncExternalStore } from "react";

/**
 * useUrlSearchParams is the query string of the address bar as React state
 * (for an island that keeps its state in the URL, such as the resource list).
 * The setter replaces the history entry, so Back leaves the page rather than
 * stepping through every keystroke; Back and Forward between entries are
 * followed. Before hydration (and while prerendering) the query is empty.
 */
const CHANGE = "urlsearchparamschange";

function subscribe(onChange: () => void): () => void {
  window.addEventListener("popstate", onChange);
  window.addEventListener(CHANGE, onChange);
  return () => {
    window.removeEventListener("popstate", onChange);
    window.removeEventListener(CHANGE, onChange);
  };
}

export function useUrlSearchParams(): [URLSearchParams, (next: URLSearchParams) => void] {
  const search = useSyncExternalStore(
    subscribe,
    () => window.location.search,
    () => "",
  );
  const set = useCallback((next: URLSearchParams) => {
    const query = next.toString();
    const url = window.location.pathname + (query ? `?${query}` : "") + window.location.hash;
    window.history.replaceState(window.history.state, "", url);
    window.dispatchEvent(new Event(CHANGE));
  }, []);
  return [new URLSearchParams(search), set];
}
