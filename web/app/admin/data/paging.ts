/** Paging of the console's lists: 25 rows a page, pages counted from 1. */

export const PAGE_SIZE = 25;

/** pageRange is the first and last row index (0-based, inclusive) of a page, as .range() takes them. */
export function pageRange(page: number, size = PAGE_SIZE): { from: number; to: number } {
  const from = (Math.max(1, Math.floor(page)) - 1) * size;
  return { from, to: from + size - 1 };
}

/** pageCount is how many pages total rows fill; an empty list still has page 1. */
export function pageCount(total: number, size = PAGE_SIZE): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / size));
}

/** clampPage keeps a page number (from a URL, or after rows went away) within the list. */
export function clampPage(page: number, total: number, size = PAGE_SIZE): number {
  if (!Number.isFinite(page)) return 1;
  return Math.min(Math.max(1, Math.floor(page)), pageCount(total, size));
}

/** shownRange is the 1-based numbers of the rows a page shows ("26–50 of 120"); 0–0 when there are none. */
export function shownRange(page: number, rows: number, total: number, size = PAGE_SIZE): { from: number; to: number } {
  if (rows === 0) return { from: 0, to: 0 };
  const { from } = pageRange(page, size);
  return { from: from + 1, to: Math.min(from + rows, total) };
}
