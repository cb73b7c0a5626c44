/**
 * What went wrong with a request, as the console acts on it: the session is
 * gone (back to sign-in), the session must first pass the two-step check
 * (aal2), the server or its store cannot be reached, or anything else. One
 * classifier for every service the console calls: auth/v1 (AuthError),
 * rest/v1 (PostgrestError with the answer's status) and storage/v1
 * (StorageApiError, or an upload's refusal).
 */

export type ProblemKind = "session" | "aal" | "network" | "unavailable" | "other";

export type Problem = { kind: ProblemKind; message: string };

/** The PostgREST and GoTrue codes that mean the access token no longer speaks for a session. */
const SESSION_CODES = new Set(["PGRST301", "PGRST302", "PGRST303", "session_not_found", "user_not_found", "bad_jwt", "no_authorization"]);

/** A failed request as supabase-js reports it: the error's code and message, and the HTTP status (0 when none came). */
export type RequestFailure = { status?: number; code?: string | number; message?: string; name?: string };

/** StorageFailure is a storage/v1 refusal: the HTTP status, the body's statusCode ("404", "409", "413", …) and message. */
export type StorageFailure = { status: number; statusCode?: string; message: string; name?: string };

/** classify sorts a failed request (a PostgREST error with its status, or an auth error) into a ProblemKind. */
export function classify(f: RequestFailure): Problem {
  const code = f.code === undefined ? "" : String(f.code);
  const message = f.message ?? "";
  const status = f.status ?? 0;
  let kind: ProblemKind = "other";
  if (code === "insufficient_aal" || (status === 403 && /\baal2\b/i.test(message))) kind = "aal";
  else if (SESSION_CODES.has(code) || status === 401 || f.name === "AuthSessionMissingError") kind = "session";
  else if (status === 0 || /failed to fetch|fetch failed|networkerror|load failed/i.test(message) || f.name === "AuthRetryableFetchError") kind = "network";
  else if (status >= 500) kind = "unavailable";
  return { kind, message };
}

/** storageFailure reads a supabase-js storage error (StorageApiError: status, statusCode, message; or a network failure). */
export function storageFailure(error: unknown): StorageFailure {
  const e = error as { status?: unknown; statusCode?: unknown; message?: unknown; name?: unknown };
  return {
    status: typeof e?.status === "number" ? e.status : 0,
    statusCode: e?.statusCode === undefined ? undefined : String(e.statusCode),
    message: typeof e?.message === "string" ? e.message : String(error),
    name: typeof e?.name === "string" ? e.name : undefined,
  };
}

/**
 * asRequestFailure is a storage/v1 failure as classify reads it. storage/v1
 * answers most refusals with HTTP 400 and the real status in the body's
 * statusCode, so that one counts; and it refuses a token whose session is
 * gone with statusCode 403 and auth's words (no code), which name the token
 * or the session, unlike its other 403s (row-level security, an origin).
 */
export function asRequestFailure(f: StorageFailure): RequestFailure {
  const inBody = Number.parseInt(f.statusCode ?? "", 10);
  const status = f.status === 400 && Number.isFinite(inBody) ? inBody : f.status;
  const sessionGone = status === 403 && !/\baal2\b/i.test(f.message) && /\b(jwt|session|claim|token)\b/i.test(f.message);
  return { status: sessionGone ? 401 : status, code: f.statusCode, message: f.message, name: f.name };
}

/**
 * problemOf classifies what any of the console's calls failed with: an
 * AuthError, a PostgrestError (with the answer's status), a StorageApiError
 * or StorageFailure (it has a statusCode), or a thrown error.
 */
export function problemOf(error: unknown, status?: number): Problem {
  const e = (error ?? {}) as { status?: unknown; statusCode?: unknown; code?: unknown; message?: unknown; name?: unknown };
  if (e.statusCode !== undefined || e.name === "StorageApiError" || e.name === "StorageUnknownError") {
    return classify(asRequestFailure(storageFailure(error)));
  }
  return classify({
    status: typeof e.status === "number" ? e.status : (status ?? 0),
    code: typeof e.code === "string" || typeof e.code === "number" ? e.code : undefined,
    message: typeof e.message === "string" ? e.message : error === undefined ? undefined : String(error),
    name: typeof e.name === "string" ? e.name : undefined,
  });
}
