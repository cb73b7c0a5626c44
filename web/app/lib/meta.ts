import type { MetaDescriptor } from "react-router";
import { studio } from "~/content/site";

export type PageMeta = { readonly title: string; readonly description: string };

/** pageMeta makes a route's <title> and meta description. The home page passes its full title. */
export function pageMeta({ title, description }: PageMeta, { fullTitle = false } = {}): MetaDescriptor[] {
  return [
    { title: fullTitle ? title : `${title} | ${studio.name}` },
    { name: "description", content: description },
  ];
}
