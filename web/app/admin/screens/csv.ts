/** The CSV exports of the console's lists. */
import { isoDay } from "../time";

/**
 * csvFileName names an export by its list, the filter and search it shows,
 * and the day: "contact-messages-open-search-acme-2026-11-24.csv". Only
 * letters, digits and dashes are kept from the search.
 */
export function csvFileName(list: string, parts: { filter?: string; q?: string }, now: Date, timeZone?: string): string {
  const slug = (s: string) =>
    s
      .normalize("NFKD")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40)
      .replace(/-+$/, "");
  const bits = [slug(list)];
  if (parts.filter && parts.filter !== "all") bits.push(slug(parts.filter));
  const q = parts.q ? slug(parts.q) : "";
  if (q) bits.push("search", q);
  bits.push(isoDay(now, timeZone));
  return `${bits.join("-")}.csv`;
}

/** saveText has the browser save text as a file. */
export function saveText(text: string, fileName: string, type = "text/csv;charset=utf-8"): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
