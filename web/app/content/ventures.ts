/** Copy of /studio/venture-portfolio (docs/requirements.md#venture-portfolio). */
import type { CallToAction, FeatureCard, PageIntro, Stat, StatusBadgeData, Venture, VentureStatus } from "./types";
export { venturesMeta } from "./page-meta";


export const venturesHero = {
  eyebrow: "Venture portfolio",
  title: "Ventures We Have Built",
  lead:
    "From data infrastructure to legal tech, these are some of the companies we have co-founded, built and scaled, and the ones we have helped to a successful exit.",
} as const satisfies PageIntro;

export const portfolioStats = {
  label: "The portfolio in numbers",
  stats: [
    { value: "12+", label: "Ventures" },
    { value: "4", label: "Exits" },
    { value: "$25M+", label: "Funding" },
    { value: "6+", label: "Industries" },
  ] satisfies Stat[],
} as const;

/** The tooltip of each venture status (docs/requirements.md#venture-portfolio). */
export const ventureStatusBadges: Record<VentureStatus, StatusBadgeData> = {
  Active: { label: "Active", tone: "green", tooltip: "Currently active" },
  Acquired: { label: "Acquired", tone: "violet", tooltip: "Successfully exited" },
};

/** ventureBadge is the badge, with its tooltip, for a venture's status. */
export function ventureBadge(status: VentureStatus): StatusBadgeData {
  return ventureStatusBadges[status];
}

/** ventureLink is where a venture's 'View Details' leads: /products/{name in lower case}. */
export function ventureLink(name: string): string {
  return `/products/${name.toLowerCase()}`;
}

/** ventureAnchor links to a venture's card on the portfolio page. */
export function ventureAnchor(name: string): string {
  return `/studio/venture-portfolio#venture-${name.toLowerCase()}`;
}

function venture(v: Omit<Venture, "link">): Venture {
  return { ...v, link: ventureLink(v.name) };
}

export const venturesSection = {
  title: "Our Ventures",
  lead: "A selection of the companies in our portfolio.",
  labels: {
    category: "Category",
    fundingStage: "Funding stage",
    yearFounded: "Founded",
    status: "Status",
    viewDetails: "View Details",
    /** Read after 'View Details' by screen readers, so each link names its venture. */
    viewDetailsOf: (name: string) => ` of ${name}`,
  },
  ventures: [
    venture({
      name: "AURION",
      description:
        "A private, local-first autonomous AI assistant that plans, acts and checks its own work to automate business workflows.",
      category: "Artificial Intelligence",
      status: "Active",
      fundingStage: "Launch",
      yearFounded: 2023,
      image: "/images/ventures/aurion.svg",
      imageAlt: "AURION's glowing AI core connected to orbiting tools",
    }),
    venture({
      name: "DataSync",
      description:
        "Real-time data synchronization between operational databases and warehouses, without brittle batch jobs. Acquired by a cloud data platform.",
      category: "Data Infrastructure",
      status: "Acquired",
      fundingStage: "Series A",
      yearFounded: 2020,
      image: "/images/ventures/datasync.svg",
      imageAlt: "Two databases kept in sync by a two-way arrow",
    }),
    venture({
      name: "CryptoTrack",
      description:
        "Portfolio tracking, tax reporting and risk alerts for digital-asset investors and the advisers who serve them.",
      category: "Fintech",
      status: "Active",
      fundingStage: "Seed",
      yearFounded: 2022,
      image: "/images/ventures/cryptotrack.svg",
      imageAlt: "A gold coin beside a rising candlestick price chart",
    }),
    venture({
      name: "HealthMonitor",
      description:
        "Remote patient monitoring that turns wearable data into early warnings for care teams. Acquired by a digital-health group.",
      category: "Healthtech",
      status: "Acquired",
      fundingStage: "Series B",
      yearFounded: 2020,
      image: "/images/ventures/healthmonitor.svg",
      imageAlt: "A heartbeat line beside a dashboard of patient vital signs",
    }),
    venture({
      name: "LearnHub",
      description:
        "A course platform for corporate academies, with cohort learning, video lessons and skills analytics for HR teams.",
      category: "Edtech",
      status: "Active",
      fundingStage: "Series A",
      yearFounded: 2021,
      image: "/images/ventures/learnhub.svg",
      imageAlt: "A graduation cap over an open book next to video lessons",
    }),
    venture({
      name: "LegalFlow",
      description:
        "Contract review and approval workflows for in-house legal teams, from first draft to signature. Acquired by a legal software vendor.",
      category: "Legal Tech",
      status: "Acquired",
      fundingStage: "Seed",
      yearFounded: 2021,
      image: "/images/ventures/legalflow.svg",
      imageAlt: "A contract with a seal of approval moving through a review workflow",
    }),
  ] satisfies Venture[],
} as const;

export const investmentCriteria = {
  title: "Our Investment Criteria",
  lead: "We partner with a handful of founders each year. These are the things we look for.",
  cards: [
    {
      icon: "target",
      title: "A Painful, Specific Problem",
      description: "A clear group of business customers who lose time or money today and are already looking for a better way.",
    },
    {
      icon: "refresh",
      title: "Recurring Revenue",
      description: "A subscription or usage-based model with the potential for strong retention and expansion revenue.",
    },
    {
      icon: "users",
      title: "Founder-Market Fit",
      description: "Founders with deep knowledge of the industry and the commitment to spend the next five to seven years on it.",
    },
    {
      icon: "shield",
      title: "Defensible Technology",
      description: "Proprietary data, workflows or integrations that become harder to copy as the product grows.",
    },
    {
      icon: "trending-up",
      title: "Capital Efficiency",
      description: "A credible path to $1M in annual recurring revenue without having to raise large rounds first.",
    },
    {
      icon: "flag",
      title: "A Clear Path to Exit",
      description: "A market with active strategic acquirers, so a successful company has a realistic route to liquidity.",
    },
  ] satisfies FeatureCard[],
} as const;

export const venturesCta = {
  title: "Building the next one?",
  lead: "If your idea fits our criteria, we would like to hear about it. We reply to every founder within one week.",
  primary: { label: "Partner With Us", href: "/contact" },
  secondary: { label: "Learn About Our Process", href: "/studio" },
} as const satisfies CallToAction;
