import { resources } from "~/content/resources";
import { siteUrl } from "~/content/site";
import { rssFeed } from "~/lib/rss";

/**
 * GET /rss.xml: a resource route, prerendered to build/client/rss.xml at
 * build time (it never runs in the browser or in the Go server).
 */
export function loader() {
  return new Response(rssFeed(resources, siteUrl), {
    headers: { "Content-Type": "application/rss+xml; charset=utf-8" },
  });
}
