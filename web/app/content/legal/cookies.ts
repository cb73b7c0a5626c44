/** Cookie Policy, /legal/cookies: seven sections. */
import { studio } from "../site";
import type { LegalDocument } from "../types";
import { LAST_UPDATED, LAST_UPDATED_ISO, company, contactLine } from "./shared";
import { cookiesMeta } from "../page-meta";

export const cookies: LegalDocument = {
  meta: cookiesMeta,
  title: "Cookie Policy",
  lastUpdated: LAST_UPDATED,
  lastUpdatedIso: LAST_UPDATED_ISO,
  intro: [
    `This Cookie Policy explains how ${company} ("${studio.name}", "we" or "us") uses cookies and similar technologies on its website, and how you can control them. It complements our Privacy Policy.`,
  ],
  sections: [
    {
      id: "what-are-cookies",
      title: "What Are Cookies",
      blocks: [
        { kind: "p", text: "Cookies are small text files that a website stores in your browser. Similar technologies, such as the browser's local storage, work in the same way. They let a website remember your actions and preferences, such as your theme or your cookie choice, between visits." },
        { kind: "p", text: "In this policy, \"cookies\" covers both cookies and these similar technologies." },
      ],
    },
    {
      id: "essential-cookies",
      title: "Essential Cookies",
      blocks: [
        { kind: "p", text: "Essential cookies are needed for the website to work and to keep it secure. They cannot be switched off in our systems, and they do not store information that identifies you." },
        {
          kind: "ul",
          items: [
            "cookie-consent (local storage): remembers whether you accepted or declined optional cookies, so we do not ask again. Kept until you clear it.",
            "theme (local storage): remembers whether you chose the light, dark or system theme. Kept until you clear it.",
          ],
        },
      ],
    },
    {
      id: "analytics-cookies",
      title: "Analytics Cookies",
      blocks: [
        { kind: "p", text: "Analytics cookies help us understand how visitors use the website, such as which pages are visited most and where visitors leave, so that we can improve it. The information is aggregated and does not identify you personally." },
        { kind: "p", text: "We set analytics cookies only if you choose Accept in the cookie banner. If you choose Decline, none are set." },
      ],
    },
    {
      id: "functionality-and-advertising-cookies",
      title: "Functionality and Advertising Cookies",
      blocks: [
        { kind: "h3", text: "Functionality cookies" },
        { kind: "p", text: "Functionality cookies remember choices you make, such as preferences in forms, to give you a more personal experience. If you block them, some features may not work as well." },
        { kind: "h3", text: "Advertising cookies" },
        { kind: "p", text: "Advertising cookies are used to show ads that are relevant to you and to measure the effect of advertising campaigns. We do not set advertising cookies today. If we ever do, we will update this policy and ask for your consent first." },
      ],
    },
    {
      id: "session-and-persistent-cookies",
      title: "Session and Persistent Cookies",
      blocks: [
        { kind: "p", text: "Session cookies exist only while your browser is open and are deleted when you close it. Persistent cookies remain on your device for a set period or until you delete them." },
        { kind: "p", text: "The preferences described under Essential Cookies are persistent, so the website remembers them between visits. Any analytics cookies we set expire after at most 13 months." },
      ],
    },
    {
      id: "third-party-cookies",
      title: "Third-Party Cookies",
      blocks: [
        { kind: "p", text: "Our pages load no content from other websites, so no third party can set cookies through them. Third-party cookies may be set when you follow a link to another website, such as our product demo or our meeting scheduling page." },
        { kind: "p", text: "Those cookies are controlled by the websites that set them and are governed by their own cookie and privacy policies. Please read them before you use those websites." },
      ],
    },
    {
      id: "managing-cookies",
      title: "Managing Cookies and Contact",
      blocks: [
        { kind: "p", text: "You can accept or decline optional cookies in the banner shown on your first visit. To change your choice later, clear this website's stored data in your browser settings; the banner will then ask again." },
        { kind: "p", text: "Most browsers also let you block or delete cookies in their settings. Blocking essential cookies may stop parts of the website from working properly." },
        { kind: "p", text: `Questions about this policy? Contact ${contactLine}` },
      ],
    },
  ],
};
