/** Privacy Policy, /legal/privacy: nine sections; children under 13 are not targeted. */
import { studio } from "../site";
import type { LegalDocument } from "../types";
import { LAST_UPDATED, LAST_UPDATED_ISO, company, contactLine } from "./shared";
import { privacyMeta } from "../page-meta";

export const privacy: LegalDocument = {
  meta: privacyMeta,
  title: "Privacy Policy",
  lastUpdated: LAST_UPDATED,
  lastUpdatedIso: LAST_UPDATED_ISO,
  intro: [
    `This Privacy Policy explains how ${company} ("${studio.name}", "we", "us" or "our") collects, uses and protects personal information when you visit our website or contact us.`,
    "We collect as little as we need to answer you and to run the website well, and we never sell your personal information.",
  ],
  sections: [
    {
      id: "information-we-collect",
      title: "Information We Collect",
      blocks: [
        { kind: "h3", text: "Information you give us" },
        {
          kind: "ul",
          items: [
            "Contact messages: your name, email address, optionally your company and phone number, and the content of your message.",
            "Waitlist and newsletter sign-ups: your email address and the product or newsletter you signed up for.",
            "Scheduling a call: if you book a consultation through our external scheduling page, the details you enter there.",
          ],
        },
        { kind: "h3", text: "Information collected automatically" },
        {
          kind: "ul",
          items: [
            "Technical data our servers log with each request: IP address, browser type, the page requested, the referring page and the date and time.",
            "Preferences stored in your own browser, such as your light or dark theme choice and your cookie choice (see our Cookie Policy).",
          ],
        },
      ],
    },
    {
      id: "how-we-use-information",
      title: "How We Use Your Information",
      blocks: [
        { kind: "p", text: "We use personal information only for these purposes:" },
        {
          kind: "ul",
          items: [
            "to answer your messages and prepare for calls you book with us;",
            "to tell you when a product you joined the waitlist for launches, and to send the newsletter you asked for;",
            "to operate, secure and improve the website, for example to detect abuse and fix errors;",
            "to comply with legal obligations and to establish or defend legal claims.",
          ],
        },
        { kind: "p", text: "Where the law requires a legal basis, we rely on your consent (newsletter and waitlist), on steps you asked us to take before entering into a contract (contact messages and calls), and on our legitimate interest in running a secure website (technical logs)." },
      ],
    },
    {
      id: "how-we-share-information",
      title: "How We Share Your Information",
      blocks: [
        { kind: "p", text: "We do not sell or rent your personal information. We share it only:" },
        {
          kind: "ul",
          items: [
            "with service providers who host our website, store data or send email on our behalf, under contracts that oblige them to protect it and to use it only on our instructions;",
            "with professional advisers such as lawyers and accountants, where needed;",
            "with authorities, where the law requires it or to protect our rights, our visitors or the public;",
            "with a buyer or successor, if our business or part of it is sold or reorganized, subject to this policy.",
          ],
        },
      ],
    },
    {
      id: "data-retention",
      title: "Data Retention",
      blocks: [
        { kind: "p", text: "We keep contact messages for up to two years after our last exchange, unless they lead to a business relationship, in which case we keep them for as long as that relationship and our legal record-keeping duties require." },
        { kind: "p", text: "Waitlist and newsletter addresses are kept until you unsubscribe or the waitlist closes. Server logs are deleted after 30 days." },
      ],
    },
    {
      id: "your-rights",
      title: "Your Rights and Choices",
      blocks: [
        { kind: "p", text: "Depending on where you live, you may have the right to:" },
        {
          kind: "ul",
          items: [
            "access the personal information we hold about you and receive a copy of it;",
            "have inaccurate information corrected, or have your information deleted;",
            "object to or restrict certain uses, and withdraw consent at any time;",
            "receive your information in a portable format;",
            "lodge a complaint with your data protection authority.",
          ],
        },
        { kind: "p", text: "Residents of California have the right to know, delete and correct their personal information and not to be discriminated against for exercising these rights. We do not sell or share personal information for cross-context behavioural advertising." },
        { kind: "p", text: "To exercise any of these rights, contact us using the details below. We will answer within 30 days." },
      ],
    },
    {
      id: "data-security",
      title: "Data Security",
      blocks: [
        { kind: "p", text: "We protect personal information with technical and organizational measures appropriate to the risk, including encrypted connections (HTTPS), access limited to the people who need it, and regular updates of our systems." },
        { kind: "p", text: "No method of transmission or storage is completely secure. If we learn of a breach that affects your personal information, we will notify you and the authorities as the law requires." },
      ],
    },
    {
      id: "childrens-privacy",
      title: "Children's Privacy",
      blocks: [
        { kind: "p", text: "Our website and services are intended for businesses and adults. They are not directed to children under 13, and we do not knowingly collect personal information from children under 13." },
        { kind: "p", text: "If you believe a child under 13 has given us personal information, please contact us and we will delete it." },
      ],
    },
    {
      id: "changes",
      title: "Changes to This Policy",
      blocks: [
        { kind: "p", text: "We may update this Privacy Policy when our practices or the law change. The \"Last updated\" date at the top shows when it last changed. If a change materially affects how we use information we already hold, we will tell you before it takes effect." },
      ],
    },
    {
      id: "contact",
      title: "Contact Us",
      blocks: [
        { kind: "p", text: "For questions about this policy or your personal information, or to exercise your rights, contact us:" },
        { kind: "p", text: contactLine },
      ],
    },
  ],
};
