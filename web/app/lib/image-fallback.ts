/**
 * Fallback pictures for images that fail to load
 * (docs/requirements.md#image-fallback). All are local files, so a fallback
 * never depends on another host.
 */

export type FallbackRule = { readonly keywords: readonly string[]; readonly src: string };

/** Checked in order; the first rule with a keyword in the alt text or source wins. */
export const fallbackRules: readonly FallbackRule[] = [
  { keywords: ["team", "founder", "portrait", "person", "people", "ceo", "cto", "avatar", "headshot"], src: "/images/fallback/people.svg" },
  { keywords: ["ai", "assistant", "robot", "automation", "workflow", "aurion"], src: "/images/fallback/ai.svg" },
  { keywords: ["chart", "growth", "analytics", "dashboard", "metric", "revenue", "finance", "scale"], src: "/images/fallback/growth.svg" },
  { keywords: ["code", "software", "developer", "build", "engineering", "api"], src: "/images/fallback/code.svg" },
  { keywords: ["podcast", "audio", "episode", "microphone"], src: "/images/fallback/podcast.svg" },
  { keywords: ["template", "document", "checklist", "spreadsheet", "download", "guide"], src: "/images/fallback/document.svg" },
  { keywords: ["logo", "brand"], src: "/images/fallback/logo.svg" },
];

export const DEFAULT_FALLBACK = "/images/fallback/default.svg";

/**
 * LAST_RESORT always loads: an inline SVG needs no request. Used when the
 * chosen fallback fails too.
 */
export const LAST_RESORT =
  "data:image/svg+xml," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 9"><defs><linearGradient id="g" x2="1" y2="1"><stop stop-color="#6366f1"/><stop offset="1" stop-color="#06b6d4"/></linearGradient></defs><rect width="16" height="9" fill="url(#g)"/></svg>',
  );

function words(text: string): Set<string> {
  return new Set(text.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean));
}

/** chooseFallback picks the fallback for an image from keywords in its alt text or source. */
export function chooseFallback(alt: string, src: string): string {
  const found = words(`${alt} ${src}`);
  for (const rule of fallbackRules) {
    if (rule.keywords.some((k) => found.has(k))) return rule.src;
  }
  return DEFAULT_FALLBACK;
}

/** The fixed fallback list of resource cards (docs/requirements.md#image-fallback). */
export const resourceFallbacks: readonly string[] = [
  "/images/fallback/growth.svg",
  "/images/fallback/code.svg",
  "/images/fallback/document.svg",
  "/images/fallback/ai.svg",
  "/images/fallback/podcast.svg",
  "/images/fallback/default.svg",
];

/** resourceFallbackIndex derives a stable index into resourceFallbacks from a title. */
export function resourceFallbackIndex(title: string, count = resourceFallbacks.length): number {
  let sum = 0;
  for (const ch of title) sum = (sum + (ch.codePointAt(0) ?? 0)) % 1_000_003;
  return sum % count;
}

/** nextSource is the source to try after `failed` failed: the chosen fallback, then the last resort. */
export function nextSource(failed: string, fallback: string): string | undefined {
  if (failed === LAST_RESORT) return undefined;
  if (failed === fallback || fallback === "") return LAST_RESORT;
  return fallback;
}

/**
 * imageFallbackScript runs inline in every page's <head>, before any image
 * starts loading, so no failure is missed and no island has to hydrate for
 * it: a failed <img> with data-fallback moves to that source, then to
 * LAST_RESORT (nextSource, in a few bytes; image.test.tsx runs both).
 */
export const imageFallbackScript = `document.addEventListener("error",function(e){var i=e.target,l=${JSON.stringify(LAST_RESORT)};if(!i||i.tagName!=="IMG"||!i.hasAttribute("data-fallback"))return;var s=i.getAttribute("src"),f=i.getAttribute("data-fallback");if(s===l)return;i.setAttribute("src",s===f||!f?l:f)},true)`;
