/** JSON-LD documents (schema.org) for the pages that show such things. */
import { siteUrl, studio } from "~/content/site";
import type { FaqEntry, PricingPlan } from "~/content/types";
import { absoluteUrl } from "./meta";

const context = "https://schema.org";

/** The studio, on every page. */
export const organization = {
  "@context": context,
  "@type": "Organization",
  name: studio.name,
  legalName: studio.legalName,
  url: siteUrl + "/",
  logo: siteUrl + "/favicon.svg",
  email: studio.email,
  telephone: studio.phone,
  foundingDate: String(studio.founded),
  address: { "@type": "PostalAddress", addressLocality: "San Francisco", addressRegion: "CA", addressCountry: "US" },
};

/** jsonLdText serializes a document for an inline script: "<" is escaped so no text can close the script. */
export function jsonLdText(doc: object): string {
  return JSON.stringify(doc).replace(/</g, "\\u003c");
}

export function faqPage(entries: readonly FaqEntry[]): object {
  return {
    "@context": context,
    "@type": "FAQPage",
    mainEntity: entries.map((e) => ({ "@type": "Question", name: e.question, acceptedAnswer: { "@type": "Answer", text: e.answer } })),
  };
}

/** product is a Product with an Offer for each plan that has a price in dollars. */
export function product(p: { name: string; description: string; image: string; path: string; plans: readonly PricingPlan[] }): object {
  return {
    "@context": context,
    "@type": "Product",
    name: p.name,
    description: p.description,
    image: siteUrl + p.image,
    url: absoluteUrl(p.path),
    brand: { "@type": "Organization", name: studio.name },
    offers: p.plans
      .filter((plan) => plan.priceAmount !== undefined)
      .map((plan) => ({
        "@type": "Offer",
        name: plan.name,
        price: String(plan.priceAmount),
        priceCurrency: "USD",
        availability: "https://schema.org/InStock",
        url: absoluteUrl(p.path) + "#pricing",
      })),
  };
}

export function article(a: { title: string; description: string; image: string; date: string; author: string; path: string }): object {
  return {
    "@context": context,
    "@type": "Article",
    headline: a.title,
    description: a.description,
    image: siteUrl + a.image,
    datePublished: a.date,
    author: { "@type": "Person", name: a.author },
    publisher: { "@type": "Organization", name: studio.name, logo: { "@type": "ImageObject", url: siteUrl + "/favicon.svg" } },
    mainEntityOfPage: absoluteUrl(a.path),
  };
}
