/** The studio's identity, navigation and the external addresses the site links to. */

export const studio = {
  name: "Meridian Studio",
  legalName: "Meridian Venture Studio, Inc.",
  tagline: "We ideate, build, scale and help founders exit cloud software products.",
  founded: 2020,
  email: "hello@meridianstudio.dev",
  phone: "+1 (415) 555-0142",
  phoneHref: "tel:+14155550142",
  location: "San Francisco, CA, United States",
} as const;

/**
 * The site's public origin, for absolute links (feeds, canonical URLs, share
 * tags). The binary's --site-url replaces it at start-up (internal/site, origin.go).
 */
export const siteUrl = "http://localhost:8080";

/** The picture shown when a page is shared (Open Graph, Twitter cards). */
export const shareImage = {
  src: "/images/og/share.jpg",
  width: 1200,
  height: 630,
  alt: `${studio.name}: Build, Launch, Scale & Exit Your SaaS Success Story`,
} as const;

/**
 * The links to other sites that the studio counts as goals: each is a
 * same-site redirect (/go/…) to its target in the server's
 * internal/analytics/outbound.json, never to an address a request names.
 */
export const externalLinks = {
  /** The live AURION demo. */
  aurionDemo: "/go/demo",
  /** The scheduling page for the free 30-minute consultation. */
  scheduling: "/go/schedule",
} as const;

export type NavLink = { readonly label: string; readonly href: string };

/** Header navigation, in the order of docs/requirements.md#shared-layout. */
export const mainNav: readonly NavLink[] = [
  { label: "Home", href: "/" },
  { label: "Studio", href: "/studio" },
  { label: "Products", href: "/products" },
  { label: "Resources", href: "/resources" },
  { label: "About", href: "/about" },
  { label: "Contact", href: "/contact" },
];

export const getStarted: NavLink = { label: "Get Started", href: "/contact" };

/** The two-button switch shown under 768 px. */
export const sectionSwitch = {
  studio: { label: "Studio", href: "/studio" },
  products: { label: "Products", href: "/products" },
} as const;

export type FooterGroup = { readonly title: string; readonly links: readonly NavLink[] };

export const footerGroups: readonly FooterGroup[] = [
  {
    title: "Studio",
    links: [
      { label: "How We Build", href: "/studio" },
      { label: "Service Packages", href: "/studio/service-packages" },
      { label: "Venture Portfolio", href: "/studio/venture-portfolio" },
      { label: "Success Stories", href: "/studio/success-stories" },
    ],
  },
  {
    title: "Company",
    links: [
      { label: "Products", href: "/products" },
      { label: "Resources", href: "/resources" },
      { label: "About", href: "/about" },
      { label: "Contact", href: "/contact" },
    ],
  },
  {
    title: "Legal",
    links: [
      { label: "Terms of Service", href: "/legal/terms" },
      { label: "Privacy Policy", href: "/legal/privacy" },
      { label: "Cookie Policy", href: "/legal/cookies" },
      { label: "Affiliate Disclosure", href: "/legal/affiliate-disclosure" },
    ],
  },
];

export const footer = {
  blurb: "A venture studio for cloud software: we turn ideas into SaaS companies and take them from first line of code to exit.",
  copyright: (year: number) => `© ${year} ${studio.legalName} All rights reserved.`,
} as const;

export const cookieBanner = {
  text: "We use cookies to improve your experience on our site.",
  policyLabel: "Cookie Policy",
  policyHref: "/legal/cookies",
  accept: "Accept",
  decline: "Decline",
} as const;

export const notFound = {
  title: "Page Not Found",
  text: "The page you're looking for doesn't exist or has been moved.",
  home: { label: "Return to Home", href: "/" },
} as const;

export const headerLabels = {
  home: `${studio.name} home`,
  search: "Search the site",
  openMenu: "Open menu",
  closeMenu: "Close menu",
  mainNav: "Main",
  sectionSwitch: "Site section",
  themeToDark: "Switch to dark theme",
  themeToLight: "Switch to light theme",
  skipToContent: "Skip to content",
} as const;

export const themeChoiceLabels = {
  legend: "Theme",
  light: "Light",
  dark: "Dark",
  system: "System",
} as const;
