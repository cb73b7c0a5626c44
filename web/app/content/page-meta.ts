/**
 * The title and description of every page of the route table: its <title>,
 * meta description and share tags, and what the site search shows for it.
 * Kept apart from the pages' copy so the lazily loaded search needs only this.
 */
import { studio } from "./site";

export const homeMeta = {
  title: "Meridian Studio – Build, Launch, Scale & Exit Your SaaS",
  description:
    "Meridian is a venture studio for cloud software. We ideate, build, scale and help founders exit SaaS products, and we ship our own, like the AURION AI assistant.",
} as const;

export const studioMeta = {
  title: "How We Build",
  description:
    "Meridian Studio's five-step process takes SaaS products from idea to exit: ideate, validate, launch, scale and exit, with one senior team at every stage.",
} as const;

export const servicePackagesMeta = {
  title: "Service Packages",
  description:
    "Fixed-scope SaaS service packages from Meridian Studio: MVP Builder from $25,000, Scale Package from $50,000 and Exit Preparation from $35,000.",
} as const;

export const venturesMeta = {
  title: "Venture Portfolio",
  description:
    "The SaaS companies Meridian Studio has built since 2020: 12+ ventures, 4 exits, $25M+ in funding raised across 6+ industries.",
} as const;

export const successStoriesMeta = {
  title: "Success Stories",
  description:
    "Case studies from Meridian Studio: how founders scaled a fintech platform, sold a healthtech company and launched an edtech product with us.",
} as const;

export const productsMeta = {
  title: "Our SaaS Portfolio",
  description:
    "Software products built and run by Meridian Studio: AURION, the private autonomous AI assistant, and two new SaaS products coming soon.",
} as const;

export const aboutMeta = {
  title: "About Us",
  description:
    "Meridian Studio is a San Francisco venture studio founded in 2020. Meet the team that has built 12+ SaaS ventures and guided 4 of them to an exit.",
} as const;

export const contactPage = {
  title: "Contact Us",
  description: "Have a SaaS project in mind? Get in touch to discuss how we can help you build, launch and scale it.",
} as const;

export const termsMeta = {
  title: "Terms of Service",
  description: `The terms that govern your use of the ${studio.name} website, its content, products and services.`,
};


export const privacyMeta = {
  title: "Privacy Policy",
  description: `How ${studio.name} collects, uses, shares and protects your personal information, and the choices you have.`,
};


export const cookiesMeta = {
  title: "Cookie Policy",
  description: `Which cookies and similar technologies the ${studio.name} website uses, why, and how you can control them.`,
};


export const affiliateDisclosureMeta = {
  title: "Affiliate Disclosure",
  description: `How affiliate links on the ${studio.name} website work: we may earn a commission at no extra cost to you, and our reviews stay honest.`,
};

