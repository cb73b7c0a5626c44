/** Copy of the site-wide search dialog, and the titles of the pages it finds. */
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
  groups: {
    page: "Pages",
    product: "Products",
    venture: "Ventures",
    resource: "Resources",
  },
} as const;

type RouteTablePath = (typeof routeTable)[number];

/**
 * The title and description of every page of the route table, as the search
 * shows them. The type makes a new route without an entry a compile error.
 */
export const searchPages: Record<RouteTablePath, { readonly title: string; readonly description: string }> = {
  "/": { title: "Home", description: "Build, launch, scale and exit your SaaS success story with a venture studio for cloud software." },
  "/studio": { title: "How We Build", description: "Our five-step process takes SaaS products from idea to exit: ideate, validate, launch, scale, exit." },
  "/studio/service-packages": { title: "Service Packages", description: "Clear scope and fixed prices for every stage of your SaaS company: MVP, scale and exit preparation." },
  "/studio/venture-portfolio": { title: "Venture Portfolio", description: "The companies we have built, scaled and helped to exit." },
  "/studio/success-stories": { title: "Success Stories", description: "How founders built, grew and sold their SaaS companies with us." },
  "/products": { title: "Our SaaS Portfolio", description: "Software products built and run by the studio, including the AURION AI assistant." },
  "/resources": { title: hubPage.title, description: hubPage.description },
  "/resources/blog": { title: categoryPages.blog.title, description: categoryPages.blog.description },
  "/resources/podcasts": { title: categoryPages.podcasts.title, description: categoryPages.podcasts.description },
  "/resources/templates": { title: categoryPages.templates.title, description: categoryPages.templates.description },
  "/about": { title: "About Us", description: "A venture studio for cloud software, founded in 2020 in San Francisco: our story, values and team." },
  "/contact": { title: "Contact Us", description: "Get in touch to discuss your SaaS project, or book a free 30-minute consultation." },
  "/legal/terms": { title: "Terms of Service", description: "The terms that govern your use of this website." },
  "/legal/privacy": { title: "Privacy Policy", description: "How we collect, use and protect your information." },
  "/legal/cookies": { title: "Cookie Policy", description: "How and why this website uses cookies." },
  "/legal/affiliate-disclosure": { title: "Affiliate Disclosure", description: "How affiliate links on this website work." },
};
