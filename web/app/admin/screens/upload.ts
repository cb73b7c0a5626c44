/**
 * uploadObject sends a file to storage/v1 the way supabase-js's upload does
 * (POST /storage/v1/object/{bucket}/{path}, a multipart form with
 * cacheControl and the file, the session's access token, the anon key and
 * x-upsert), but with XMLHttpRequest, whose upload.onprogress reports the
 * bytes sent: fetch, and so supabase-js, cannot.
 */
import type { StorageFailure } from "../data/problem";
import { objectUrlPath } from "./files-path";

export type UploadRequest = {
  /** The site's origin ("" for this page's). */
  base?: string;
  anonKey: string;
  accessToken: string;
  bucket: string;
  path: string;
  file: Blob;
  /** Replace an object already at path (x-upsert: true); otherwise that is refused with 409. */
  upsert: boolean;
  onProgress: (loaded: number, total: number) => void;
  signal?: AbortSignal;
};

export type UploadResult = { ok: true } | { ok: false; failure: StorageFailure };

/** The Cache-Control max-age supabase-js sends by default, in seconds. */
const CACHE_CONTROL = "3600";

export function uploadObject(u: UploadRequest): Promise<UploadResult> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `${u.base ?? ""}/storage/v1/object/${objectUrlPath(u.bucket, u.path)}`);
    xhr.setRequestHeader("Authorization", `Bearer ${u.accessToken}`);
    xhr.setRequestHeader("apikey", u.anonKey);
    xhr.setRequestHeader("x-upsert", String(u.upsert));
    xhr.upload.onprogress = (e) => u.onProgress(e.loaded, e.lengthComputable ? e.total : u.file.size);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        u.onProgress(u.file.size, u.file.size);
        resolve({ ok: true });
      } else resolve({ ok: false, failure: failureOf(xhr.status, xhr.responseText) });
    };
    xhr.onerror = () => resolve({ ok: false, failure: { status: 0, message: "Failed to fetch", name: "NetworkError" } });
    xhr.onabort = () => resolve({ ok: false, failure: { status: 0, message: "The upload was cancelled.", name: "AbortError" } });
    if (u.signal?.aborted) {
      resolve({ ok: false, failure: { status: 0, message: "The upload was cancelled.", name: "AbortError" } });
      return;
    }
    u.signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append("cacheControl", CACHE_CONTROL);
    // supabase-js names its file part "" too; the part's type is the file's content type.
    form.append("", u.file, u.path.split("/").at(-1));
    xhr.send(form);
  });
}

/** failureOf reads a storage/v1 error body ({statusCode, error, message}); a body that is not one keeps its status. */
export function failureOf(status: number, body: string): StorageFailure {
  try {
    const b = JSON.parse(body) as { statusCode?: unknown; message?: unknown; error?: unknown };
    const message = typeof b.message === "string" ? b.message : typeof b.error === "string" ? b.error : "";
    return { status, statusCode: b.statusCode === undefined ? undefined : String(b.statusCode), message: message || `HTTP ${status}` };
  } catch {
    return { status, message: body.trim().slice(0, 300) || `HTTP ${status}` };
  }
}
