/**
 * The resources section (docs/requirements.md#resources, #resource-list and
 * #sign-up-forms): every resource, and the copy of the hub, the three
 * category pages, the resource list and the newsletter signup. The bodies of
 * the detail pages are Markdown files beside this module, in resources/.
 */
import type { Link } from "./types";

export type ResourceCategory = "blog" | "podcast" | "template" | "guide";

type ResourceBase = {
  /** The last segment of the detail page's path, and the name of its Markdown body. */
  readonly slug: string;
  readonly title: string;
  readonly description: string;
  /** A 640 × 360 cover. */
  readonly image: { readonly src: string; readonly alt: string };
  /** ISO date (YYYY-MM-DD): the sort key and the feed's pubDate. */
  readonly date: string;
  /** The date as the page shows it. */
  readonly dateText: string;
  readonly author: string;
};

/** A downloadable file of a template, served from web/public/downloads/. */
export type ResourceDownload = {
  readonly href: string;
  readonly fileName: string;
  /** What the file is, for the download button: "CSV spreadsheet". */
  readonly kind: string;
};

export type Resource = ResourceBase &
  (
    | { readonly category: "blog" | "guide"; readonly readTime: string }
    | { readonly category: "podcast"; readonly listenTime: string }
    | { readonly category: "template"; readonly downloadSize: string; readonly download: ResourceDownload }
  ) & {
    /** The detail page: /resources/{slug}. */
    readonly url: string;
  };

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type ResourceEntry = DistributiveOmit<Resource, "url">;

const cover = (slug: string, alt: string) => ({ src: `/images/resources/${slug}.svg`, alt });

const entries: readonly ResourceEntry[] = [
  {
    slug: "saas-founders-playbook",
    title: "The SaaS Founder's Playbook",
    description:
      "Our complete guide from first idea to exit: validating demand, building the MVP, finding product–market fit, scaling revenue and preparing the company for a buyer.",
    image: cover("saas-founders-playbook", "An open playbook with a growth chart on its pages"),
    category: "guide",
    date: "2025-04-22",
    dateText: "April 22, 2025",
    author: "Alex Morgan",
    readTime: "25 min read",
  },
  {
    slug: "scaling-strategies",
    title: "Scaling Strategies That Work: From $1M to $10M ARR",
    description:
      "The playbook for the messy middle: when to hire, what to automate, and how to keep growth efficient once the founders can no longer close every deal.",
    image: cover("scaling-strategies", "A staircase of bars rising towards a growth target"),
    category: "blog",
    date: "2025-03-18",
    dateText: "March 18, 2025",
    author: "Priya Natarajan",
    readTime: "9 min read",
  },
  {
    slug: "building-for-exit-podcast",
    title: "Building for Exit: Start With the End in Mind",
    description:
      "Elena Rodriguez on selling Vertex Data: why a clean data room shortened due diligence from months to weeks, and what she would do differently.",
    image: cover("building-for-exit-podcast", "A podcast microphone in front of a sound wave"),
    category: "podcast",
    date: "2025-03-04",
    dateText: "March 4, 2025",
    author: "Daniel Okafor",
    listenTime: "42 min listen",
  },
  {
    slug: "financial-model-template",
    title: "SaaS Financial Model Template",
    description:
      "A 24-month revenue and cash model for early-stage SaaS: MRR, churn, CAC, gross margin, burn and runway, ready to open in Excel, Numbers or Google Sheets.",
    image: cover("financial-model-template", "A spreadsheet with revenue rows and a bar chart"),
    category: "template",
    date: "2025-02-10",
    dateText: "February 10, 2025",
    author: "Sofia Lindqvist",
    downloadSize: "CSV, 3 KB",
    download: { href: "/downloads/saas-financial-model.csv", fileName: "saas-financial-model.csv", kind: "CSV spreadsheet" },
  },
  {
    slug: "ai-in-saas",
    title: "AI in SaaS: Where It Earns Its Keep",
    description:
      "Not every product needs a chatbot. Four places where AI features reliably create value for SaaS customers, and three where they quietly destroy trust.",
    image: cover("ai-in-saas", "A neural network connecting to application windows"),
    category: "blog",
    date: "2025-02-25",
    dateText: "February 25, 2025",
    author: "Alex Morgan",
    readTime: "8 min read",
  },
  {
    slug: "product-led-growth",
    title: "Product-Led Growth: A Practical Guide for B2B Teams",
    description:
      "How to let the product do the selling: choosing between free trial and freemium, designing activation milestones and handing warm accounts to sales.",
    image: cover("product-led-growth", "A product screen with a funnel of users flowing through it"),
    category: "blog",
    date: "2025-01-28",
    dateText: "January 28, 2025",
    author: "Priya Natarajan",
    readTime: "11 min read",
  },
  {
    slug: "due-diligence-checklist",
    title: "Due Diligence Checklist",
    description:
      "The 60 questions acquirers and investors ask, grouped by corporate, financial, legal, technical and people topics, so your data room is ready before they ask.",
    image: cover("due-diligence-checklist", "A clipboard with a ticked checklist"),
    category: "template",
    date: "2025-01-14",
    dateText: "January 14, 2025",
    author: "Sofia Lindqvist",
    downloadSize: "Markdown, 4 KB",
    download: { href: "/downloads/due-diligence-checklist.md", fileName: "due-diligence-checklist.md", kind: "Markdown checklist" },
  },
  {
    slug: "onboarding-best-practices",
    title: "Onboarding Best Practices: The First Ten Minutes",
    description:
      "Most trial users decide in the first session. Seven onboarding patterns that get new users to their first success faster, with the metrics to prove it.",
    image: cover("onboarding-best-practices", "A guided product tour with numbered steps"),
    category: "blog",
    date: "2024-12-10",
    dateText: "December 10, 2024",
    author: "Daniel Okafor",
    readTime: "7 min read",
  },
  {
    slug: "customer-centric-culture",
    title: "Building a Customer-Centric Culture",
    description:
      "Sarah Chen of Quanta Analytics on putting every engineer on support rotation, running weekly customer calls, and turning feedback into the roadmap.",
    image: cover("customer-centric-culture", "A team gathered around a customer at the centre"),
    category: "podcast",
    date: "2024-11-19",
    dateText: "November 19, 2024",
    author: "Daniel Okafor",
    listenTime: "38 min listen",
  },
  {
    slug: "future-of-b2b-saas",
    title: "The Future of B2B SaaS",
    description:
      "Where B2B software goes next: usage-based pricing, vertical AI agents, local-first architecture and the end of the seat licence, debated by two operators.",
    image: cover("future-of-b2b-saas", "A horizon of cloud shapes with a rising path"),
    category: "podcast",
    date: "2024-10-29",
    dateText: "October 29, 2024",
    author: "Daniel Okafor",
    listenTime: "45 min listen",
  },
  {
    slug: "idea-to-ipo",
    title: "From Idea to IPO: A Founder's Journey",
    description:
      "Marcus Johnson retraces Helix CRM's twelve years from a spreadsheet macro to a public company: the near-death moments, the pivots and the hires that mattered.",
    image: cover("idea-to-ipo", "A path from a light bulb to a stock market bell"),
    category: "podcast",
    date: "2024-10-08",
    dateText: "October 8, 2024",
    author: "Daniel Okafor",
    listenTime: "51 min listen",
  },
  {
    slug: "pitch-deck-template",
    title: "SaaS Pitch Deck Template",
    description:
      "The twelve-slide outline we use with our ventures for seed and Series A rounds, with prompts for every slide and the SaaS metrics investors look for first.",
    image: cover("pitch-deck-template", "A presentation slide with a chart and bullet points"),
    category: "template",
    date: "2024-09-17",
    dateText: "September 17, 2024",
    author: "Alex Morgan",
    downloadSize: "Markdown, 2 KB",
    download: { href: "/downloads/saas-pitch-deck-outline.md", fileName: "saas-pitch-deck-outline.md", kind: "Markdown outline" },
  },
  {
    slug: "roadmap-framework",
    title: "Product Roadmap Framework",
    description:
      "A RICE scoring sheet and a now–next–later roadmap in one spreadsheet, so every feature request gets the same fair hearing before it gets a quarter.",
    image: cover("roadmap-framework", "A roadmap timeline with milestones in three lanes"),
    category: "template",
    date: "2024-08-27",
    dateText: "August 27, 2024",
    author: "Priya Natarajan",
    downloadSize: "CSV, 2 KB",
    download: { href: "/downloads/product-roadmap-framework.csv", fileName: "product-roadmap-framework.csv", kind: "CSV spreadsheet" },
  },
];

export const resourceBasePath = "/resources";

/** Every resource, in the order of the slugs in docs/requirements.md#routes. */
export const resources: readonly Resource[] = entries.map((entry) => ({ ...entry, url: `${resourceBasePath}/${entry.slug}` }) as Resource);

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
