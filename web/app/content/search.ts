/** Copy of the site-wide search dialog, and the titles of the pages it finds. */
import {
  aboutMeta,
  affiliateDisclosureMeta,
  contactPage,
  cookiesMeta,
  homeMeta,
  privacyMeta,
  productsMeta,
  servicePackagesMeta,
  studioMeta,
  successStoriesMeta,
  termsMeta,
  venturesMeta,
} from "./page-meta";
import { categoryPages, hubPage } from "./resources";
import type { routeTable } from "./site-map";

export const searchDialog = {
  title: "Search the site",
  inputLabel: "Search pages, products, ventures and resources",
  placeholder: "Search pages, products, ventures, resources…",
  close: "Close search",
  hint: "Type to search pages, products, ventures and resources.",
  noResults: (query: string) => `No results for “${query}”`,
  count: (n: number) => (n === 1 ? "1 result" : `${n} results`),
  resultsLabel: "Search results",
  keys: { move: "to move", open: "to open", close: "to close" },
  /** What each result is, shown beside it. */
  kinds: {
    page: "Page",
    product: "Product",
    venture: "Venture",
    resource: "Resource",
  },
} as const;

type RouteTablePath = (typeof routeTable)[number];

/**
 * The title and description of every page of the route table, as the search
 * shows them: each page's own meta copy. The type makes a new route without
 * an entry a compile error.
 */
export const searchPages: Record<RouteTablePath, { readonly title: string; readonly description: string }> = {
  "/": { title: "Home", description: homeMeta.description },
  "/studio": studioMeta,
  "/studio/service-packages": servicePackagesMeta,
  "/studio/venture-portfolio": venturesMeta,
  "/studio/success-stories": successStoriesMeta,
  "/products": productsMeta,
  "/resources": { title: hubPage.title, description: hubPage.description },
  "/resources/blog": { title: categoryPages.blog.title, description: categoryPages.blog.description },
  "/resources/podcasts": { title: categoryPages.podcasts.title, description: categoryPages.podcasts.description },
  "/resources/templates": { title: categoryPages.templates.title, description: categoryPages.templates.description },
  "/about": aboutMeta,
  "/contact": contactPage,
  "/legal/terms": termsMeta,
  "/legal/privacy": privacyMeta,
  "/legal/cookies": cookiesMeta,
  "/legal/affiliate-disclosure": affiliateDisclosureMeta,
};
