/** The studio's own products. AURION is live; the other two are coming soon. */

export type ProductStatus = "live" | "coming-soon" | "in-development";

export type Product = {
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

export const statusLabels: Record<ProductStatus, string> = {
  live: "Live",
  "coming-soon": "Coming Soon",
  "in-development": "In Development",
};

export const products: readonly Product[] = [
  {
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
  },
  {
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
  },
  {
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
  },
];

export function findProduct(id: string | undefined): Product | undefined {
  return products.find((p) => p.id === id);
}
