import { packagesFaq } from "./service-packages";
import { isLive, products } from "./products";
import type { FaqEntry } from "./types";

/**
 * The site's lists of questions, by name: the service packages' and each
 * live product's (by its id). An accordion island takes its list from here,
 * not as props: props are written into the page, which its first paint
 * would wait for.
 */
export const faqs: Readonly<Record<string, readonly FaqEntry[]>> = {
  "service-packages": packagesFaq.entries,
  ...Object.fromEntries(products.filter(isLive).map((p) => [p.id, p.faq])),
};
