/**
 * The studio's own products and the copy of /products and /products/{id}
 * (docs/requirements.md#products, #product-status and #product-detail). AURION is live; the other two are
 * coming soon. Any other id is "Product Not Found".
 */
import { externalLinks } from "./site";
import type {
  CallToAction,
  ExternalLink,
  FaqEntry,
  FeatureCard,
  IconName,
  Link,
  PageIntro,
  PricingPlan,
  StatusBadgeData,
  Testimonial,
} from "./types";
export { productsMeta } from "./page-meta";

export type ProductStatus = "live" | "coming-soon" | "in-development";

type ProductBase = {
  readonly id: string;
  readonly name: string;
  readonly tagline: string;
  readonly description: string;
  readonly longDescription: string;
  readonly image: string;
  readonly imageAlt: string;
  readonly status: ProductStatus;
  readonly primaryColor: string;
  readonly secondaryColor: string;
};

/** A product on sale: its page is in live mode (features, testimonials, pricing, FAQ). */
export type LiveProduct = ProductBase & {
  readonly status: "live";
  /** The external demo. */
  readonly demoUrl: string;
  readonly features: readonly FeatureCard[];
  readonly testimonials: readonly Testimonial[];
  readonly pricing: readonly PricingPlan[];
  readonly faq: readonly FaqEntry[];
};

/** A product not yet on sale: its page is in coming-soon mode (waitlist). */
export type UpcomingProduct = ProductBase & {
  readonly status: "coming-soon" | "in-development";
  /** What the product will do, in three short points. */
  readonly highlights: readonly string[];
};

export type Product = LiveProduct | UpcomingProduct;

export const statusLabels: Record<ProductStatus, string> = {
  live: "Live",
  "coming-soon": "Coming Soon",
  "in-development": "In Development",
};

const statusTones = {
  live: "green",
  "coming-soon": "yellow",
  "in-development": "blue",
} as const satisfies Record<ProductStatus, StatusBadgeData["tone"]>;

/** statusBadge is the badge of a product status: 'Live' green, 'Coming Soon' yellow, 'In Development' blue. */
export function statusBadge(status: ProductStatus): StatusBadgeData {
  return { label: statusLabels[status], tone: statusTones[status] };
}

const aurion: LiveProduct = {
  id: "aurion",
  name: "AURION",
  tagline: "Your private, autonomous AI assistant",
  description:
    "A private, local-first autonomous AI assistant platform that automates your workflows without sending your data to anyone else's cloud.",
  longDescription:
    "AURION plans, acts and checks its own work. Built on a planning/action/safety framework and the Model Context Protocol, it connects to the tools your team already uses, runs on your own hardware, and keeps every decision auditable.",
  image: "/images/products/aurion.svg",
  imageAlt: "AURION assistant dashboard showing an automated workflow plan",
  status: "live",
  primaryColor: "#4f46e5",
  secondaryColor: "#06b6d4",
  demoUrl: externalLinks.aurionDemo,
  features: [
    {
      icon: "lock",
      title: "Private and Local-First",
      description:
        "AURION runs on your own laptop, server or private cloud. Documents, prompts and results never leave the machines you control.",
    },
    {
      icon: "workflow",
      title: "Autonomous Planning",
      description:
        "Describe the outcome you want. AURION breaks it into steps, chooses the right tools and carries out the plan from start to finish.",
    },
    {
      icon: "shield",
      title: "Built-In Safety Layer",
      description:
        "Every action passes the planning/action/safety framework: policies you define decide what runs on its own and what waits for your approval.",
    },
    {
      icon: "plug",
      title: "Model Context Protocol",
      description:
        "Connect email, calendars, files, databases and internal APIs through the open Model Context Protocol, with no custom glue code.",
    },
    {
      icon: "zap",
      title: "Workflow Automation",
      description:
        "Turn recurring work such as reports, triage, data entry and follow-ups into workflows that run on a schedule or on a trigger.",
    },
    {
      icon: "eye",
      title: "Full Audit Trail",
      description:
        "See what AURION planned, which tools it used and why. Every step is logged, explainable and reversible where the tool allows it.",
    },
  ],
  testimonials: [
    {
      quote:
        "AURION prepares our weekly client reports overnight. What took an analyst a full day now takes ten minutes of review, and no client data leaves our office.",
      author: "Rachel Kim",
      role: "Managing Director",
      company: "Northwind Advisory",
      rating: 5,
    },
    {
      quote:
        "The safety policies sold our security team. AURION asks before anything irreversible, and the audit trail answers every question our auditors have.",
      author: "Tomás Alvarez",
      role: "Head of IT Operations",
      company: "Brightline Logistics",
      rating: 5,
    },
    {
      quote:
        "We connected our ticketing system and knowledge base through MCP in an afternoon. AURION now drafts and routes 60% of our support tickets.",
      author: "Hannah Becker",
      role: "VP Customer Success",
      company: "Cloudnest",
      rating: 5,
    },
  ],
  pricing: [
    {
      id: "demo",
      name: "Demo",
      price: "Free",
      priceAmount: 0,
      description: "Explore AURION on your own machine with sample workflows.",
      features: ["1 user and 1 workspace", "Up to 3 automated workflows", "Local model support", "Core MCP connectors", "Community support"],
      buttonText: "Start Free Demo",
      buttonLink: externalLinks.aurionDemo,
      external: true,
      mostPopular: false,
    },
    {
      id: "professional",
      name: "Professional",
      price: "$299",
      priceAmount: 299,
      period: "/year",
      description: "Everything a professional or a small team needs to automate real work.",
      features: [
        "Up to 10 users",
        "Unlimited workflows",
        "All MCP connectors",
        "Custom safety policies and approvals",
        "Full audit trail and export",
        "Priority email support",
      ],
      buttonText: "Get Professional",
      buttonLink: "/contact",
      mostPopular: true,
    },
    {
      id: "enterprise",
      name: "Enterprise",
      price: "Custom",
      description: "For organizations that need scale, compliance and a dedicated partner.",
      features: [
        "Unlimited users and workspaces",
        "On-premises and air-gapped deployment",
        "Single sign-on and role-based access",
        "Custom connectors and integrations",
        "Dedicated success manager and SLA",
      ],
      buttonText: "Contact Sales",
      buttonLink: "/contact",
      mostPopular: false,
    },
  ],
  faq: [
    {
      id: "local",
      question: "Does my data leave my computer?",
      answer:
        "No. AURION is local-first: it runs on hardware you control and works with local models by default. If you choose to connect a cloud model or service, you decide exactly which data it may see.",
    },
    {
      id: "safety",
      question: "How does AURION stay safe when it acts on its own?",
      answer:
        "Every plan passes a planning/action/safety framework. Your policies decide which actions run automatically and which need approval, and anything irreversible always asks first. Every step is logged.",
    },
    {
      id: "mcp",
      question: "Which tools can AURION connect to?",
      answer:
        "Any tool with a Model Context Protocol server: email, calendars, file storage, databases, ticketing systems and your own internal APIs. Connectors for the most common tools are included.",
    },
    {
      id: "requirements",
      question: "What hardware do I need?",
      answer:
        "A recent laptop or desktop with 16 GB of memory runs the Demo and most Professional workflows. For teams, we recommend a small server with a GPU; our team can help you size it.",
    },
    {
      id: "refund",
      question: "Can I get a refund if it is not right for me?",
      answer:
        "Yes. Professional comes with a 14-day money-back guarantee. There are no contracts, and you can cancel anytime.",
    },
  ],
};

const ledgerloop: UpcomingProduct = {
  id: "saas-2",
  name: "LedgerLoop",
  tagline: "Finance operations on autopilot",
  description:
    "Automated reconciliation, spend controls and month-end close for growing businesses, in one calm workspace.",
  longDescription:
    "LedgerLoop connects your bank feeds, cards and accounting system, matches transactions as they happen and closes the books in days instead of weeks.",
  image: "/images/products/ledgerloop.svg",
  imageAlt: "LedgerLoop finance dashboard with reconciliation charts",
  status: "coming-soon",
  primaryColor: "#059669",
  secondaryColor: "#0ea5e9",
  highlights: [
    "Bank, card and accounting data matched automatically as it arrives",
    "Spend policies and approvals that finance teams set once",
    "A month-end close checklist that runs itself",
  ],
};

const pulseboard: UpcomingProduct = {
  id: "saas-3",
  name: "Pulseboard",
  tagline: "Customer health you can act on",
  description:
    "Customer-health scoring that blends product usage, support and billing signals so your team knows who needs attention today.",
  longDescription:
    "Pulseboard turns scattered customer signals into one health score with the reasons behind it, and routes the next best action to the right person.",
  image: "/images/products/pulseboard.svg",
  imageAlt: "Pulseboard customer health overview with trend lines",
  status: "coming-soon",
  primaryColor: "#db2777",
  secondaryColor: "#f59e0b",
  highlights: [
    "One health score per account, with the reasons behind it",
    "Usage, support and billing signals in one timeline",
    "Next best actions routed to the right owner",
  ],
};

export const products: readonly Product[] = [aurion, ledgerloop, pulseboard];

export function findProduct(id: string | undefined): Product | undefined {
  return products.find((p) => p.id === id);
}

/** isLive tells whether a product's page is in live mode (otherwise coming-soon mode). */
export function isLive(product: Product): product is LiveProduct {
  return product.status === "live";
}

/* ---- /products ---- */


export const productsHero = {
  eyebrow: "Products",
  title: "Our SaaS Portfolio",
  lead: "Besides building companies with founders, we build and run software of our own. Every product solves a problem we first met in our ventures.",
} as const satisfies PageIntro;

export const productCardLabels = {
  learnMore: "Learn More",
  tryDemo: "Try Demo",
  /** Read after 'Learn More' by screen readers, so each link names its product. */
  about: (name: string) => ` about ${name}`,
} as const;

export const productsCta = {
  title: "Have a SaaS Idea?",
  lead: "We turn promising ideas into SaaS companies. Tell us about yours, or see how our service packages can help.",
  primary: { label: "Discuss Your Idea", href: "/contact" },
  secondary: { label: "Our Services", href: "/studio/service-packages" },
} as const satisfies CallToAction;

/* ---- /products/{id} ---- */

export const productNotFound = {
  title: "Product Not Found",
  text: "The product you're looking for doesn't exist in our portfolio.",
  back: { label: "Back to Products", href: "/products" } satisfies Link,
} as const;

export const liveProductCopy = {
  statusLabel: "Status",
  startTrial: "Start Free Trial",
  learnMore: { label: "Learn More", href: "#features" } satisfies Link,
  features: { id: "features", title: "Key Features", lead: (name: string) => `Everything ${name} needs to automate real work, safely.` },
  testimonials: { id: "testimonials", title: "What Our Users Say", lead: (name: string) => `Teams that hand their busywork to ${name}.` },
  pricing: {
    id: "pricing",
    title: "Simple, Transparent Pricing",
    lead: "Start free, upgrade when you are ready.",
    popularLabel: "Most Popular",
    guarantee: "14-day money-back guarantee, no contracts, cancel anytime.",
  },
  faq: { id: "faq", title: "Frequently Asked Questions", lead: (name: string) => `What people ask before they start with ${name}.` },
  cta: (product: LiveProduct) =>
    ({
      title: `Ready to meet ${product.name}?`,
      lead: "Try the demo in your browser in two minutes, or compare the plans.",
      primary: { label: "Try Demo", href: product.demoUrl, external: true } satisfies ExternalLink,
      secondary: { label: "View Pricing", href: "#pricing" },
    }) satisfies CallToAction,
} as const;

export type InfoCard = { readonly icon: IconName; readonly label: string; readonly value: string; readonly note: string };

export const comingSoonCopy = {
  joinWaitlist: { label: "Join Waitlist", href: "#waitlist" } satisfies Link,
  getUpdates: { label: "Get Updates", href: "#waitlist" } satisfies Link,
  section: {
    id: "waitlist",
    title: "Coming Soon",
    lead: (name: string) => `${name} is in private testing. Join the waitlist and we will invite you as soon as it is ready, with an early-bird discount.`,
  },
  form: {
    label: "Email address",
    placeholder: "you@company.com",
    submit: "Notify Me",
    submitting: "Subscribing...",
    privacy: "We will only email you about this product's launch. Unsubscribe at any time.",
    success: (name: string) => ({ title: "You're on the list!", description: `We'll let you know as soon as ${name} launches.` }),
    errorTitle: "Error",
    errorFallback: "Could not join the waitlist. Please try again.",
  },
  infoTitle: "Launch Details",
  infoCards: [
    { icon: "calendar", label: "Expected Launch", value: "Q3 2023", note: "Early access for the waitlist first." },
    { icon: "users", label: "Target Audience", value: "Businesses of all sizes", note: "From start-ups to established teams." },
    { icon: "tag", label: "Early Bird Discount", value: "Up to 40% off", note: "For everyone who joins the waitlist." },
  ] satisfies InfoCard[],
  cta: (product: Product) =>
    ({
      title: "Stay Updated",
      lead: `Be the first to hear when ${product.name} launches, and lock in your early-bird discount.`,
      primary: { label: "Sign Up for Updates", href: `/products/${product.id}#waitlist` },
      secondary: { label: "Explore Other Products", href: "/products" },
    }) satisfies CallToAction,
} as const;
