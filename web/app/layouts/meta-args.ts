import type { MetaArgs } from "~/lib/meta";

/** metaArgs is what a page's meta function gets, from the URL Astro renders it at. */
export function metaArgs<P extends Record<string, string>>(url: URL, params: P = {} as P): MetaArgs<P> {
  return { location: { pathname: url.pathname.replace(/\/$/, "") || "/" }, params };
}
