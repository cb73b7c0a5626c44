/**
 * What went wrong with a request, as the console acts on it: the session is
 * gone (back to sign-in), the session must first pass the two-step check
 * (aal2), the server or its store cannot be reached, or anything else.
 */

export type ProblemKind = "session" | "aal" | "network" | "unavailable" | "other";

export type Problem = { kind: ProblemKind; message: string };

/** The PostgREST and GoTrue codes that mean the access token no longer speaks for a session. */
const SESSION_CODES = new Set(["PGRST301", "PGRST302", "PGRST303", "session_not_found", "user_not_found", "bad_jwt", "no_authorization"]);

/** A failed request as supabase-js reports it: the error's code and message, and the HTTP status (0 when none came). */
export type RequestFailure = { status?: number; code?: string | number; message?: string; name?: string };

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
