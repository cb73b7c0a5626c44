/**
 * The RSS 2.0 feed of the resources hub: articles, guides and podcast
 * episodes, newest first, with absolute links. Written at build time by the
 * endpoint app/pages/rss.xml.ts; the binary rewrites its origin at start-up.
 */
import { categoryLabels, feed, resourceBasePath, type Resource } from "~/content/resources";

/** The categories the feed carries: reading and listening, not downloads. */
export const feedCategories: ReadonlySet<Resource["category"]> = new Set(["blog", "guide", "podcast"]);

const xmlEscapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => xmlEscapes[c]!);
}

/** rfc822Date turns an ISO date (YYYY-MM-DD) into RSS's date format, at midnight UTC. */
export function rfc822Date(isoDate: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) throw new Error(`invalid date ${isoDate}`);
  return date.toUTCString();
}

/**
 * rssFeed renders the feed. origin is the site's public origin (siteUrl);
 * every link in the feed is absolute. lastBuildDate is the newest item's
 * date, so the same content always builds the same file.
 */
export function rssFeed(all: readonly Resource[], origin: string): string {
  const absolute = (path: string) => new URL(path, origin).href;
  const items = all.filter((r) => feedCategories.has(r.category)).sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  const newest = items[0]?.date;
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">`,
    `<channel>`,
    `<title>${escapeXml(feed.title)}</title>`,
    `<link>${escapeXml(absolute(resourceBasePath))}</link>`,
    `<description>${escapeXml(feed.description)}</description>`,
    `<language>en-us</language>`,
    ...(newest ? [`<lastBuildDate>${rfc822Date(newest)}</lastBuildDate>`] : []),
    `<atom:link href="${escapeXml(absolute(feed.path))}" rel="self" type="application/rss+xml"/>`,
    ...items.map((r) =>
      [
        `<item>`,
        `<title>${escapeXml(r.title)}</title>`,
        `<link>${escapeXml(absolute(r.url))}</link>`,
        `<guid isPermaLink="true">${escapeXml(absolute(r.url))}</guid>`,
        `<description>${escapeXml(r.description)}</description>`,
        `<category>${escapeXml(categoryLabels[r.category])}</category>`,
        `<dc:creator>${escapeXml(r.author)}</dc:creator>`,
        `<pubDate>${rfc822Date(r.date)}</pubDate>`,
        `</item>`,
      ].join("\n"),
    ),
    `</channel>`,
    `</rss>`,
  ];
  return lines.join("\n") + "\n";
}
