/**
 * The Files screen's pure helpers: where a bucket's folder lives in the
 * console's URL, its breadcrumbs, object paths and their checks (the rules
 * storage/v1 applies, so a bad name is caught before it is sent), sizes,
 * and what a storage/v1 refusal means.
 */
import { CONSOLE_ROOT } from "../route";
import type { StorageFailure } from "../data/problem";

export const FILES_ROOT = `${CONSOLE_ROOT}/files`;

/** The longest object name storage/v1 keeps, in UTF-8 bytes. */
export const MAX_PATH_BYTES = 1024;

/** segments splits a path on "/" and drops empty parts ("a//b/" is a, b). */
function segments(path: string): string[] {
  return path.split("/").filter(Boolean);
}

/** filesPath is the console URL of a folder (prefix "" is the bucket's top), or of the bucket list without a bucket. */
export function filesPath(bucket?: string, prefix = ""): string {
  if (bucket === undefined) return FILES_ROOT;
  return [FILES_ROOT, bucket, ...segments(prefix)].map((s, i) => (i === 0 ? s : encodeURIComponent(s))).join("/");
}

/** joinPath joins a folder and a name into an object path ("docs" + "a.pdf" is "docs/a.pdf"). */
export function joinPath(prefix: string, name: string): string {
  return [...segments(prefix), ...segments(name)].join("/");
}

/** baseName is the last part of a path: an object's own name. */
export function baseName(path: string): string {
  return segments(path).at(-1) ?? "";
}

/** parentOf is the folder an object path lies in ("" at the top). */
export function parentOf(path: string): string {
  return segments(path).slice(0, -1).join("/");
}

export type Crumb = { label: string; href: string; current: boolean };

/** breadcrumbs are the links from the bucket list down to a folder; the last is the folder shown. */
export function breadcrumbs(rootLabel: string, bucket: string, prefix: string): Crumb[] {
  const parts = segments(prefix);
  const crumbs: Crumb[] = [
    { label: rootLabel, href: filesPath(), current: false },
    { label: bucket, href: filesPath(bucket), current: parts.length === 0 },
  ];
  parts.forEach((p, i) => crumbs.push({ label: p, href: filesPath(bucket, parts.slice(0, i + 1).join("/")), current: i === parts.length - 1 }));
  return crumbs;
}

export type PathProblem = "empty" | "dots" | "emptySegment" | "control" | "tooLong";

/**
 * pathProblem is why storage/v1 would refuse an object path, or undefined:
 * no "." or ".." segments, no empty segments (a leading, trailing or double
 * "/"), no control characters, at most MAX_PATH_BYTES bytes.
 */
export function pathProblem(path: string): PathProblem | undefined {
  if (path === "") return "empty";
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) return "control";
  const parts = path.split("/");
  if (parts.some((p) => p === "." || p === "..")) return "dots";
  if (parts.some((p) => p === "")) return "emptySegment";
  if (new TextEncoder().encode(path).length > MAX_PATH_BYTES) return "tooLong";
  return undefined;
}

/** objectUrlPath is the URL path of an object under /storage/v1/object/, each segment encoded. */
export function objectUrlPath(bucket: string, path: string): string {
  return [bucket, ...path.split("/")].map(encodeURIComponent).join("/");
}

/** formatSize shows a byte count in binary units, as "0 B", "900 B", "1.5 KB", "12 MB", "1.2 GB". */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "—";
  const units = ["B", "KB", "MB", "GB", "TB"];
  let n = bytes;
  let u = 0;
  while (n >= 1024 && u < units.length - 1) {
    n /= 1024;
    u++;
  }
  if (u === 0) return `${n} B`;
  return `${n < 10 ? n.toFixed(1).replace(/\.0$/, "") : Math.round(n)} ${units[u]}`;
}

/** percent is how much of an upload is sent, 0–100, rounded down (100 only when all is sent). */
export function percent(loaded: number, total: number): number {
  if (total <= 0) return 0;
  return Math.min(100, Math.floor((loaded / total) * 100));
}

/** isPreviewable reports whether a content type is an image a browser shows in an <img>. */
export function isPreviewable(contentType: string | undefined): boolean {
  return /^image\/(png|jpe?g|gif|webp|avif|svg\+xml|bmp|x-icon|vnd\.microsoft\.icon)\b/i.test(contentType ?? "");
}


export type StorageRefusal = "exists" | "tooLarge" | "typeNotAllowed" | "notFound" | "invalidName";

/** refusalOf names the refusals the Files screen explains; undefined for any other. */
export function refusalOf(f: StorageFailure): StorageRefusal | undefined {
  switch (f.statusCode ?? String(f.status)) {
    case "409":
      return "exists";
    case "413":
      return "tooLarge";
    case "415":
      return "typeNotAllowed";
    case "404":
      return "notFound";
  }
  if (/^Invalid key/i.test(f.message)) return "invalidName";
  return undefined;
}
