/** Affiliate Disclosure, /legal/affiliate-disclosure. */
import { studio } from "../site";
import type { LegalDocument } from "../types";
import { LAST_UPDATED, LAST_UPDATED_ISO, company, contactLine } from "./shared";
import { affiliateDisclosureMeta } from "../page-meta";

export const affiliateDisclosure: LegalDocument = {
  meta: affiliateDisclosureMeta,
  title: "Affiliate Disclosure",
  lastUpdated: LAST_UPDATED,
  lastUpdatedIso: LAST_UPDATED_ISO,
  intro: [
    `Transparency matters to us. This page explains how ${company} ("${studio.name}", "we" or "us") may earn money from some of the links on this website, in line with the guidelines of the US Federal Trade Commission (FTC) on endorsements.`,
  ],
  sections: [
    {
      id: "affiliate-links",
      title: "What Affiliate Links Are",
      blocks: [
        { kind: "p", text: "Some of our articles, guides, podcast notes and templates recommend software tools and services made by other companies. Some of these recommendations are affiliate links: links that tell the seller that a visitor came from our website." },
        { kind: "p", text: "If you click such a link and then buy or subscribe, the seller may pay us a commission." },
      ],
    },
    {
      id: "no-extra-cost",
      title: "No Extra Cost to You",
      blocks: [
        { kind: "p", text: "Affiliate commissions are paid by the seller, not by you. Buying through one of our affiliate links never costs you more than going to the seller directly, and sometimes it gives you access to a discount we have negotiated for our readers." },
        { kind: "p", text: "The commissions help us keep our resources, such as the founders' playbook, podcasts and templates, free for everyone." },
      ],
    },
    {
      id: "honest-reviews",
      title: "Our Commitment to Honest Reviews",
      blocks: [
        { kind: "p", text: "We only recommend products that we have used ourselves, in our own ventures or with our clients, or that we have evaluated carefully. Whether a company has an affiliate program never decides whether we recommend it or what we write about it." },
        {
          kind: "ul",
          items: [
            "Our opinions are our own and are not approved by the companies we write about.",
            "We describe drawbacks and limitations as clearly as strengths.",
            "We regularly review our recommendations and remove products that no longer meet our standards.",
            "Companies cannot pay for a positive review or a higher place in our lists.",
          ],
        },
      ],
    },
    {
      id: "identifying-affiliate-links",
      title: "How to Recognize Affiliate Content",
      blocks: [
        { kind: "p", text: "Pages that contain affiliate links say so near the top or next to the link. If you are unsure whether a link is an affiliate link, ask us and we will tell you." },
      ],
    },
    {
      id: "our-own-products",
      title: "Our Own Products and Ventures",
      blocks: [
        { kind: "p", text: "We also write about products we build or hold a stake in, such as AURION and the companies in our venture portfolio. These are not affiliate links, but we have a financial interest in them, and we say so whenever we mention them in a recommendation." },
      ],
    },
    {
      id: "contact",
      title: "Questions",
      blocks: [
        { kind: "p", text: `If you have any questions about this disclosure or about a specific recommendation, contact ${contactLine}` },
      ],
    },
  ],
};
