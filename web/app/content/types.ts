/** Shapes shared by several content modules. */

export type Link = { readonly label: string; readonly href: string };

/** A link to another site; it opens in a new tab. */
export type ExternalLink = Link & { readonly external: true };

export type IconName =
  | "lightbulb"
  | "code"
  | "trending-up"
  | "trophy"
  | "shield"
  | "workflow"
  | "cpu"
  | "plug"
  | "lock"
  | "zap"
  | "bar-chart"
  | "globe"
  | "users"
  | "rocket"
  | "search"
  | "flag"
  | "sparkles"
  | "calendar"
  | "tag"
  | "heart"
  | "target"
  | "handshake"
  | "wallet"
  | "refresh"
  | "clock"
  | "layers"
  | "eye";

export type FeatureCard = {
  readonly icon: IconName;
  readonly title: string;
  readonly description: string;
};

export type Testimonial = {
  readonly quote: string;
  readonly author: string;
  readonly role: string;
  readonly company: string;
  readonly avatar?: string;
  /** 1 to 5 stars. */
  readonly rating: 1 | 2 | 3 | 4 | 5;
};

export type Logo = {
  readonly src: string;
  readonly alt: string;
  readonly width?: number;
  readonly height?: number;
};

export type PackageFeature = { readonly title: string; readonly included: boolean };

export type ServicePackage = {
  readonly id: string;
  readonly name: string;
  readonly price: string;
  readonly priceNote?: string;
  readonly description: string;
  readonly features: readonly PackageFeature[];
  readonly popular: boolean;
  readonly buttonText: string;
  readonly buttonLink: string;
};

export type FaqEntry = { readonly id: string; readonly question: string; readonly answer: string };

/** A figure shown in a stats row ("12+", "Ventures built"). */
export type Stat = { readonly value: string; readonly label: string };

/** An image from web/public/images with its intrinsic size. */
export type Picture = {
  readonly src: string;
  readonly alt: string;
  readonly width: number;
  readonly height: number;
};

/** The headline band of an inner page. */
export type PageIntro = {
  readonly eyebrow?: string;
  readonly title: string;
  readonly lead: string;
};

/** A closing call to action: a title, a line, one or two links (the first may leave the site). */
export type CallToAction = {
  readonly title: string;
  readonly lead: string;
  readonly primary: Link | ExternalLink;
  readonly secondary?: Link;
};

/** One step of the studio's process (docs/requirements.md#studio). */
export type ProcessStep = {
  /** The anchor of the step on /studio (#ideate …). */
  readonly id: string;
  readonly stepNumber: number;
  readonly title: string;
  readonly description: string;
  readonly bulletPoints: readonly [string, string, string];
  readonly icon: IconName;
  readonly imageSrc: string;
  readonly imageAlt: string;
  /** The image sits on the left on wide screens. */
  readonly isReversed: boolean;
};

export type VentureStatus = "Active" | "Acquired";
export type FundingStage = "Seed" | "Series A" | "Series B" | "Series C" | "Launch";

export type Venture = {
  readonly name: string;
  readonly description: string;
  readonly category: string;
  readonly status: VentureStatus;
  readonly fundingStage: FundingStage;
  readonly yearFounded: number;
  readonly image: string;
  readonly imageAlt: string;
  readonly link: string;
};

export type CaseStudy = {
  readonly id: string;
  readonly title: string;
  readonly company: string;
  readonly industry: string;
  readonly description: string;
  readonly challenge: string;
  readonly solution: string;
  readonly results: readonly string[];
  readonly testimonial: { readonly quote: string; readonly author: string; readonly role: string };
  readonly image: Picture;
};

export type TeamMember = {
  readonly name: string;
  readonly role: string;
  readonly bio: string;
  readonly image: string;
};

export type Value = { readonly icon: IconName; readonly title: string; readonly description: string };

/** A price plan of a product. */
export type PricingPlan = {
  readonly id: string;
  readonly name: string;
  readonly price: string;
  /** The price in US dollars when it is a fixed amount (for structured data). */
  readonly priceAmount?: number;
  /** Shown after the price, e.g. "/year". */
  readonly period?: string;
  readonly description: string;
  readonly features: readonly string[];
  readonly buttonText: string;
  /** A path on this site, an anchor, or (with external) another site. */
  readonly buttonLink: string;
  readonly external?: boolean;
  readonly mostPopular: boolean;
};

/** A block of legal text: a paragraph, a sub-heading or a bulleted list. */
export type LegalBlock =
  | { readonly kind: "p"; readonly text: string }
  | { readonly kind: "h3"; readonly text: string }
  | { readonly kind: "ul"; readonly items: readonly string[] };

export type LegalSection = {
  /** The anchor of the section, linked from the table of contents. */
  readonly id: string;
  readonly title: string;
  readonly blocks: readonly LegalBlock[];
};

export type LegalDocument = {
  readonly meta: { readonly title: string; readonly description: string };
  readonly title: string;
  /** Display form, e.g. "May 16, 2025". */
  readonly lastUpdated: string;
  /** ISO date of lastUpdated, for <time dateTime>. */
  readonly lastUpdatedIso: string;
  readonly intro: readonly string[];
  readonly sections: readonly LegalSection[];
};

/** The colour family of a status badge; components map it to accessible colour pairs. */
export type BadgeTone = "green" | "yellow" | "blue" | "violet";

/** A status shown as a badge, with an optional explanation shown as its tooltip. */
export type StatusBadgeData = { readonly label: string; readonly tone: BadgeTone; readonly tooltip?: string };
