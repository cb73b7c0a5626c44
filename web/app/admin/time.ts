/** Times as the console shows them: in the viewer's own time zone and locale. */

export type TimeOptions = { timeZone?: string; locale?: string };

/** viewerTimeZone is the browser's IANA time zone ("Europe/Berlin"), UTC when it cannot tell. */
export function viewerTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** formatDateTime shows an ISO time as "24 Nov 2026, 09:14 CET" in the viewer's zone; the raw text when it is not a time. */
export function formatDateTime(iso: string, { timeZone, locale }: TimeOptions = {}): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone,
    timeZoneName: "short",
  }).format(d);
}

/**
 * formatListTime is the short time of a list row: the time of day for today,
 * the day and month within the year, else the date.
 */
export function formatListTime(iso: string, now: Date, { timeZone, locale }: TimeOptions = {}): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const day = (x: Date) => new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(x);
  if (day(d) === day(now)) return new Intl.DateTimeFormat(locale, { timeStyle: "short", timeZone }).format(d);
  const year = (x: Date) => new Intl.DateTimeFormat("en", { timeZone, year: "numeric" }).format(x);
  if (year(d) === year(now)) return new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", timeZone }).format(d);
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone }).format(d);
}

/** isoDay is the viewer's calendar day of a time as YYYY-MM-DD (for file names). */
export function isoDay(d: Date, timeZone?: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(d);
}
