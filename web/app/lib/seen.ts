import { CONSENT_MADE_ATTRIBUTE } from "./consent";

/**
 * How the site counts a page shown, with no script and no cookie
 * (docs/analytics.md, internal/analytics): a rendered page paints an empty
 * box whose background is SEEN_PATH, and the server counts the page its
 * request names as referrer. A prefetched page never shown fetches nothing;
 * so does a visitor who declined cookies (the consent script marks <html>
 * before the first paint). Inline, so that its request's referrer is the
 * page, not a stylesheet. Go's analytics.SeenPath is the same path
 * (internal/server's TestEveryPageCountsItsView).
 */
export const SEEN_PATH = "/seen";

export const seenStyle = `html:not([${CONSENT_MADE_ATTRIBUTE}=declined]) body::after{content:"";position:absolute;width:1px;height:1px;background:url(${SEEN_PATH})}`;
