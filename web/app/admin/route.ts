/**
 * The console's screens and their URLs. Everything lives under /admin (the
 * Go server answers every such path with the console's shell); the list
 * screens keep their search, filter and page in the query, so a reload or
 * a shared link shows the same rows and the Back button walks through them.
 */
import type { InboxFilter } from "~/content/console";

export const CONSOLE_ROOT = "/admin";

export type Route =
  | { screen: "inbox" }
  | { screen: "message"; id: string }
  | { screen: "waitlist" }
  | { screen: "subscribers" }
  | { screen: "analytics" }
  | { screen: "account" }
  /** The bucket list without a bucket; a bucket's folder (prefix "" is its top) with one. */
  | { screen: "files"; bucket?: string; prefix: string }
  | { screen: "not-found" };

/** parseRoute reads the screen from a path; /admin itself is the inbox. */
export function parseRoute(pathname: string): Route {
  const rest = pathname.replace(/\/+$/, "").slice(CONSOLE_ROOT.length).split("/").filter(Boolean);
  const [first, second, ...more] = rest.map((s) => decodeURIComponent(s));
  if (first === "files") return { screen: "files", bucket: second, prefix: more.join("/") };
  if (more.length > 0) return { screen: "not-found" };
  switch (first) {
    case undefined:
    case "inbox":
      return second ? { screen: "message", id: second } : { screen: "inbox" };
    case "waitlist":
    case "subscribers":
    case "analytics":
    case "account":
      return second ? { screen: "not-found" } : { screen: first };
    default:
      return { screen: "not-found" };
  }
}

export function messagePath(id: string): string {
  return `${CONSOLE_ROOT}/inbox/${encodeURIComponent(id)}`;
}

export const INBOX_FILTERS: readonly [InboxFilter, ...InboxFilter[]] = ["open", "handled", "spam", "all"];

/** ListParams are a list screen's search, filter and page. */
export type ListParams<F extends string = string> = { q: string; filter: F; page: number };

/** readListParams reads a list's state from a query string, falling back to the first filter and page 1. */
export function readListParams<F extends string>(search: string, filters: readonly [F, ...F[]]): ListParams<F> {
  const p = new URLSearchParams(search);
  const filter = p.get("filter");
  const page = Number.parseInt(p.get("page") ?? "", 10);
  return {
    q: p.get("q") ?? "",
    filter: filters.includes(filter as F) ? (filter as F) : filters[0],
    page: Number.isFinite(page) && page > 1 ? page : 1,
  };
}

/** listSearch writes a list's state as a query string ("" for the defaults), in a fixed order. */
export function listSearch<F extends string>(params: ListParams<F>, defaultFilter: F): string {
  const p = new URLSearchParams();
  if (params.q) p.set("q", params.q);
  if (params.filter !== defaultFilter) p.set("filter", params.filter);
  if (params.page > 1) p.set("page", String(params.page));
  const s = p.toString();
  return s ? `?${s}` : "";
}
