/**
 * Every path the site prerenders. The route table (docs/requirements.md#routes) comes
 * first, in its order; then the product pages and the not-found pages, which
 * the Go server answers with status 404 (see internal/site).
 */
import { products } from "./products";
import { formOutcome, formProblems } from "./forms";
import { contactForm } from "./contact";
import { feed, resources } from "./resources";

export const routeTable = [
  "/",
  "/studio",
  "/studio/service-packages",
  "/studio/venture-portfolio",
  "/studio/success-stories",
  "/products",
  "/resources",
  "/resources/blog",
  "/resources/podcasts",
  "/resources/templates",
  "/about",
  "/contact",
  "/legal/terms",
  "/legal/privacy",
  "/legal/cookies",
  "/legal/affiliate-disclosure",
] as const;

/**
 * Paths whose page is a not-found page: the site's, the products' one, and
 * the resources' one (an unknown resource slug shows the site's Page Not Found).
 */
export const notFoundPaths = ["/404", "/products/404", "/resources/404"] as const;

export function productPaths(): string[] {
  return products.map((p) => `/products/${p.id}`);
}

export function resourcePaths(): string[] {
  return resources.map((r) => r.url);
}

/** Files that Astro endpoints (app/pages/*.ts) write at build time. */
export const generatedFiles = [feed.path] as const;

export function prerenderPaths(): string[] {
  return [...routeTable, ...productPaths(), ...resourcePaths(), ...notFoundPaths, ...generatedFiles];
}

/**
 * The pages a form posted without JavaScript lands on (not indexed, not in
 * the sitemap): the confirmations and one page per problem.
 */
export function formOutcomePaths(): string[] {
  return [
    contactForm.success.path,
    ...products.filter((p) => p.status === "coming-soon").map((p) => formOutcome.joinedPath(p.id)),
    formOutcome.subscribedPath,
    ...Object.keys(formProblems).map((reason) => `/forms/problem/${reason}`),
  ];
}
