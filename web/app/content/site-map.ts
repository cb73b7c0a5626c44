/**
 * Every path the site prerenders. The route table of the specification comes
 * first, in its order; then the product pages and the not-found pages, which
 * the Go server answers with status 404 (see internal/site).
 */
import { products } from "./products";

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

/** Paths whose page is a not-found page: the site's, and the products' one. */
export const notFoundPaths = ["/404", "/products/404"] as const;

export function productPaths(): string[] {
  return products.map((p) => `/products/${p.id}`);
}

export function prerenderPaths(): string[] {
  return [...routeTable, ...productPaths(), ...notFoundPaths];
}
