import { resources } from "~/content/resources";
import { siteUrl } from "~/content/site";
import { rssFeed } from "~/lib/rss";

/** GET /rss.xml, written to build/client/rss.xml at build time (it never runs in the browser or the Go server). */
export function GET() {
  return new Response(rssFeed(resources, siteUrl), {
    headers: { "Content-Type": "application/rss+xml; charset=utf-8" },
  });
}
