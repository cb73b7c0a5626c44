/**
 * Every page's head: title, description, canonical URL, share tags (Open
 * Graph, Twitter) and structured data (JSON-LD). Absolute URLs start with
 * siteUrl; the binary's --site-url rewrites them when the site is deployed
 * elsewhere.
 */
import { mainNav, shareImage, siteUrl, studio } from "~/content/site";

/** One head element of a page: its title, a <meta>, a <link>, or a JSON-LD document (rendered by layouts/Head.astro). */
export type MetaDescriptor =
  | { title: string }
  | { name: string; content: string }
  | { property: string; content: string }
  | { tagName: "link"; rel: string; href: string; type?: string; title?: string }
  | { "script:ld+json": object };

export type PageMeta = { readonly title: string; readonly description: string };

export type PageMetaOptions = {
  /** The page's URL path. */
  path: string;
  /** The home page passes its full title; others get " | Studio" appended. */
  fullTitle?: boolean;
  /** Not-found pages: not indexed, no canonical URL. */
  noindex?: boolean;
  /** Open Graph type; articles say "article". */
  type?: "website" | "article";
  /** More JSON-LD documents for this page (products, FAQs, articles). */
  jsonLd?: readonly object[];
};

export const absoluteUrl = (path: string) => siteUrl + (path === "/" ? "/" : path.replace(/\/$/, ""));

/** pageMeta makes the head tags of a page. */
export function pageMeta({ title, description }: PageMeta, opts: PageMetaOptions): MetaDescriptor[] {
  const fullTitle = opts.fullTitle ? title : `${title} | ${studio.name}`;
  const url = absoluteUrl(opts.path);
  const tags: MetaDescriptor[] = [
    { title: fullTitle },
    { name: "description", content: description },
    { property: "og:site_name", content: studio.name },
    { property: "og:type", content: opts.type ?? "website" },
    { property: "og:title", content: fullTitle },
    { property: "og:description", content: description },
    { property: "og:image", content: siteUrl + shareImage.src },
    { property: "og:image:width", content: String(shareImage.width) },
    { property: "og:image:height", content: String(shareImage.height) },
    { property: "og:image:alt", content: shareImage.alt },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: fullTitle },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: siteUrl + shareImage.src },
  ];
  if (opts.noindex) {
    tags.push({ name: "robots", content: "noindex" });
    return tags;
  }
  tags.push({ tagName: "link", rel: "canonical", href: url }, { property: "og:url", content: url });
  const crumbs = breadcrumbs(opts.path, title);
  if (crumbs) tags.push({ "script:ld+json": crumbs });
  for (const doc of opts.jsonLd ?? []) tags.push({ "script:ld+json": doc });
  return tags;
}

/**
 * breadcrumbs is the BreadcrumbList of a nested page: Home, the section it
 * belongs to (a main navigation entry, when there is one), the page.
 */
export function breadcrumbs(path: string, title: string): object | undefined {
  const segments = path.split("/").filter(Boolean);
  if (segments.length < 2) return undefined;
  const trail: { name: string; path: string }[] = [{ name: mainNav[0]!.label, path: "/" }];
  for (let i = 1; i < segments.length; i++) {
    const ancestor = "/" + segments.slice(0, i).join("/");
    const section = mainNav.find((n) => n.href === ancestor);
    if (section) trail.push({ name: section.label, path: ancestor });
  }
  trail.push({ name: title, path });
  return {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: trail.map((c, i) => ({ "@type": "ListItem", position: i + 1, name: c.name, item: absoluteUrl(c.path) })),
  };
}
