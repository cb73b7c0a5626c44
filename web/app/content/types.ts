/** Shapes shared by several content modules (specification section 3). */

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
  | "flag";

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
