/**
 * The resources section (docs/requirements.md#resources, #resource-list and
 * #sign-up-forms): every resource, and the copy of the hub, the three
 * category pages, the resource list and the newsletter signup. Each resource
 * is a Markdown file in resources/: its frontmatter (resource-schema.ts) and
 * its body, the detail page's text.
 */
import type { Link } from "./types";
import type { ResourceFrontmatter } from "./resource-schema";
import { frontmatterBySlug } from "./resources.generated";

export type ResourceCategory = ResourceFrontmatter["category"];

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * A template's file gets its address in the public bucket downloads of
 * storage/v1, as an attachment; the binary puts web/public/downloads/ there
 * at its first start, and staff may replace a file from then on.
 */
type WithHref<F> = F extends { download: infer D } ? Omit<F, "download"> & { readonly download: D & { readonly href: string } } : F;

/** A resource: its file's frontmatter, and what follows from it. */
export type Resource = WithHref<DistributiveOmit<ResourceFrontmatter, "cover">> & {
  /** The file's name without .md: the last segment of the detail page's path. */
  readonly slug: string;
  /** The detail page: /resources/{slug}. */
  readonly url: string;
  /** The 640 × 360 cover, public/images/resources/{slug}.svg. */
  readonly image: { readonly src: string; readonly alt: string };
  /** The date as the page shows it: "April 22, 2025". */
  readonly dateText: string;
};

export const resourceBasePath = "/resources";

const dateText = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });

function resourceOf(slug: string, { cover, ...data }: ResourceFrontmatter): Resource {
  const resource = {
    ...data,
    slug,
    url: `${resourceBasePath}/${slug}`,
    image: { src: `/images/resources/${slug}.svg`, alt: cover },
    dateText: dateText.format(new Date(`${data.date}T00:00:00Z`)),
  };
  if (data.category !== "template") return resource as Resource;
  return { ...resource, download: { ...data.download, href: `/storage/v1/object/public/downloads/${encodeURIComponent(data.download.fileName)}?download` } } as Resource;
}

/**
 * Every resource, newest first (the order of the search's results and the
 * list's data), from the frontmatter of its file. The bodies stay out of this
 * module, which the search's index brings to the browser.
 */
export const resources: readonly Resource[] = Object.entries(frontmatterBySlug)
  .map(([slug, data]) => resourceOf(slug, data))
  .sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));

export function findResource(slug: string | undefined): Resource | undefined {
  return resources.find((r) => r.slug === slug);
}

/** resourceLength is a resource's read time, listen time or download size, whichever it has. */
export function resourceLength(resource: Resource): string {
  switch (resource.category) {
    case "podcast":
      return resource.listenTime;
    case "template":
      return resource.downloadSize;
    default:
      return resource.readTime;
  }
}

/** Singular labels of the categories, as the cards and detail pages show them. */
export const categoryLabels: Record<ResourceCategory, string> = {
  blog: "Article",
  podcast: "Podcast",
  template: "Template",
  guide: "Guide",
};

/** The category filter of the list (docs/requirements.md#resource-list), in order. */
export const categoryFilterOptions = [
  { value: "all", label: "All" },
  { value: "blog", label: "Articles" },
  { value: "podcast", label: "Podcasts" },
  { value: "template", label: "Templates" },
  { value: "guide", label: "Guides" },
] as const;

export const sortOptions = [
  { value: "newest", label: "Newest first" },
  { value: "oldest", label: "Oldest first" },
] as const;

/** The tab bar of the four resource pages. */
export const resourceTabs: readonly Link[] = [
  { label: "All Resources", href: "/resources" },
  { label: "Blog", href: "/resources/blog" },
  { label: "Podcast", href: "/resources/podcasts" },
  { label: "Templates", href: "/resources/templates" },
];

export const resourceTabsLabel = "Resource sections";

export const hubPage = {
  title: "Resources Hub",
  description:
    "Guides, articles, podcast episodes and templates for SaaS founders: everything we have learned building, scaling and selling software companies.",
} as const;

export const featuredGuide = {
  eyebrow: "Featured guide",
  slug: "saas-founders-playbook",
  cta: { label: "Read the Playbook", href: "/resources/saas-founders-playbook" } satisfies Link,
} as const;

export const categoryPages = {
  blog: {
    title: "Blog Articles",
    description: "Articles on building, scaling and exiting SaaS companies, written by the people who do it every day.",
    category: "blog",
  },
  podcasts: {
    title: "Podcasts",
    description: "Conversations with founders, operators and investors about the decisions that made their companies.",
    category: "podcast",
  },
  templates: {
    title: "Templates & Resources",
    description: "Financial models, checklists and frameworks to download and put to work in your own company today.",
    category: "template",
  },
} as const satisfies Record<string, { title: string; description: string; category: ResourceCategory }>;

export const resourceList = {
  title: "Browse all resources",
  searchLabel: "Search resources",
  searchPlaceholder: "Search by title, topic or author",
  categoryLabel: "Category",
  sortLabel: "Sort",
  loading: "Loading resources…",
  count: (shown: number, total: number) =>
    total === 0 ? "No resources found" : `Showing ${shown} of ${total} ${total === 1 ? "resource" : "resources"}`,
  empty: {
    title: "No resources found",
    text: "Try changing your search or filter criteria",
    clear: "Clear Filters",
  },
  loadMore: "Load More Resources",
} as const;

export const resourceCard = {
  by: "By",
  download: "Download",
} as const;

export const resourceDetail = {
  back: "All resources",
  by: "By",
  published: "Published",
  downloadTitle: "Download the template",
  downloadButton: "Download",
  more: "More resources",
} as const;

export const newsletter = {
  title: "Get new resources in your inbox",
  lead: "One email a month with our newest guides, episodes and templates. No spam, unsubscribe at any time.",
  emailLabel: "Email address",
  emailPlaceholder: "you@company.com",
  submit: "Subscribe",
  submitting: "Subscribing...",
  success: { title: "Subscribed!", description: "Thanks for subscribing. The next issue is on its way to your inbox." },
  errorTitle: "Error",
  errorFallback: "Subscription failed. Please try again.",
} as const;

export const feed = {
  title: "Meridian Studio – Resources",
  description: "Articles, guides and podcast episodes on building, scaling and exiting SaaS companies.",
  path: "/rss.xml",
  linkTitle: "Meridian Studio resources (RSS)",
} as const;
