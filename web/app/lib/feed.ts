import { feed } from "~/content/resources";

/** feedLink is the meta descriptor that lets feed readers find /rss.xml from the resource pages. */
export const feedLink = {
  tagName: "link",
  rel: "alternate",
  type: "application/rss+xml",
  title: feed.linkTitle,
  href: feed.path,
} as const;
