/** Terms of Service, /legal/terms: ten numbered sections; the governing law awaits counsel. */
import { studio } from "../site";
import type { LegalDocument } from "../types";
import { LAST_UPDATED, LAST_UPDATED_ISO, company, contactLine } from "./shared";
import { termsMeta } from "../page-meta";

/** Shown where the governing law will go, until counsel confirms it. */
export const GOVERNING_LAW_PLACEHOLDER = "[Governing law to be confirmed: State/Country]";

export const terms: LegalDocument = {
  meta: termsMeta,
  title: "Terms of Service",
  lastUpdated: LAST_UPDATED,
  lastUpdatedIso: LAST_UPDATED_ISO,
  intro: [
    `These Terms of Service ("Terms") govern your access to and use of the website of ${company} ("${studio.name}", "we", "us" or "our"), including all pages, content, downloads and forms offered on it (together, the "Website").`,
    "Please read them carefully. By using the Website you agree to these Terms. If you do not agree, please do not use the Website.",
  ],
  sections: [
    {
      id: "acceptance",
      title: "Acceptance of Terms",
      blocks: [
        { kind: "p", text: "By accessing or using the Website you confirm that you have read, understood and agree to be bound by these Terms and by our Privacy Policy and Cookie Policy, which form part of these Terms." },
        { kind: "p", text: "If you use the Website on behalf of a company or other organization, you confirm that you have the authority to accept these Terms on its behalf, and \"you\" then refers to that organization as well." },
      ],
    },
    {
      id: "use-of-website",
      title: "Use of the Website",
      blocks: [
        { kind: "p", text: "You may use the Website for lawful purposes only, to learn about our studio, our services and our products. When using it you agree not to:" },
        {
          kind: "ul",
          items: [
            "break any applicable law or regulation, or infringe the rights of others;",
            "attempt to gain unauthorized access to the Website, its servers or any connected system;",
            "interfere with or disrupt the Website, for example by introducing malware or by sending excessive automated requests;",
            "copy, scrape or harvest content or personal data from the Website by automated means without our written permission;",
            "send us unsolicited advertising, spam or content that is unlawful, abusive or misleading.",
          ],
        },
        { kind: "p", text: "We may suspend or restrict access to the Website, in whole or in part, at any time and without notice, for example for maintenance or to protect the Website and its visitors." },
      ],
    },
    {
      id: "intellectual-property",
      title: "Intellectual Property",
      blocks: [
        { kind: "p", text: `The Website and its content, including text, graphics, illustrations, logos, software, templates and downloads, are owned by or licensed to ${company} and are protected by copyright, trademark and other laws.` },
        { kind: "p", text: "You may view and print pages and use downloadable templates for your own internal business purposes. You may not reproduce, distribute, modify, sell or create derivative works from the content for any other purpose without our prior written consent." },
        { kind: "p", text: `"${studio.name}", "AURION" and our other product names and logos are our trademarks. Nothing on the Website grants you a licence to use them.` },
      ],
    },
    {
      id: "your-submissions",
      title: "Your Submissions",
      blocks: [
        { kind: "p", text: "When you send us a message through the contact form, join a product waitlist or sign up for our newsletter, you confirm that the information you provide is accurate and that you are entitled to share it." },
        { kind: "p", text: "Please do not send us confidential information or detailed business plans through the Website before we have agreed on confidentiality in writing. Unless we have signed such an agreement, we cannot accept any obligation of confidentiality for ideas sent to us, and we may already be working on similar ideas." },
        { kind: "p", text: "We handle the personal data in your submissions as described in our Privacy Policy." },
      ],
    },
    {
      id: "products-and-services",
      title: "Products and Services",
      blocks: [
        { kind: "p", text: "The Website describes our studio services and our software products. Descriptions, prices, launch dates and availability are given for information only and may change without notice; they are not an offer that can be accepted online." },
        { kind: "p", text: "Studio engagements are governed by a separate written agreement signed by both parties. Use of our software products, including AURION, is governed by the licence or subscription terms presented when you sign up for them. If those terms conflict with these Terms, those terms prevail for the product or service concerned." },
      ],
    },
    {
      id: "third-party-links",
      title: "Third-Party Links and Services",
      blocks: [
        { kind: "p", text: "The Website links to websites and services run by others, such as our product demo and our meeting scheduling page, and some pages may contain affiliate links (see our Affiliate Disclosure)." },
        { kind: "p", text: "We do not control those websites and are not responsible for their content, availability or privacy practices. Your use of them is governed by their own terms and policies." },
      ],
    },
    {
      id: "disclaimer",
      title: "Disclaimer of Warranties",
      blocks: [
        { kind: "p", text: "The Website and its content are provided \"as is\" and \"as available\". To the fullest extent permitted by law, we make no warranties of any kind, express or implied, including warranties of accuracy, completeness, fitness for a particular purpose and non-infringement." },
        { kind: "p", text: "Articles, guides, templates and other resources are general information, not legal, financial, tax or investment advice. Past results of our ventures, including exits and funding raised, do not guarantee future results." },
      ],
    },
    {
      id: "limitation-of-liability",
      title: "Limitation of Liability",
      blocks: [
        { kind: "p", text: `To the fullest extent permitted by law, ${company} and its partners, employees and agents will not be liable for any indirect, incidental, special, consequential or punitive damages, or for any loss of profits, revenue, data or goodwill, arising from or related to your use of, or inability to use, the Website.` },
        { kind: "p", text: "Our total liability for any claim arising from the Website is limited to one hundred US dollars (USD 100). Nothing in these Terms limits liability that cannot be limited by law." },
      ],
    },
    {
      id: "governing-law",
      title: "Governing Law and Disputes",
      blocks: [
        { kind: "p", text: `These Terms and any dispute arising from them or from your use of the Website are governed by the laws of ${GOVERNING_LAW_PLACEHOLDER}, without regard to its conflict-of-law rules.` },
        { kind: "p", text: `The courts of ${GOVERNING_LAW_PLACEHOLDER} have exclusive jurisdiction over any such dispute, unless the law of your country of residence gives you the right to bring proceedings elsewhere. Before starting proceedings, please contact us so that we can try to resolve the matter informally.` },
      ],
    },
    {
      id: "changes-and-contact",
      title: "Changes to These Terms and Contact",
      blocks: [
        { kind: "p", text: "We may update these Terms from time to time. The \"Last updated\" date at the top of this page shows when they last changed. Changes apply from the moment they are published; if you keep using the Website after that, you accept the updated Terms." },
        { kind: "p", text: "If any provision of these Terms is found unenforceable, the remaining provisions remain in full force." },
        { kind: "p", text: `Questions about these Terms? Contact ${contactLine}` },
      ],
    },
  ],
};
