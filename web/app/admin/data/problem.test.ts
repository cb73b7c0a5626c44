import { describe, expect, it } from "vitest";
import { classify, problemOf } from "./problem";

describe("classify", () => {
  it.each([
    [{ status: 401, code: "PGRST301", message: "JWT expired" }, "session"],
    [{ status: 403, code: "session_not_found", message: "Session from session_id claim in JWT does not exist" }, "session"],
    [{ name: "AuthSessionMissingError", message: "Auth session missing!" }, "session"],
    [{ status: 403, code: "insufficient_aal", message: "AAL2 session is required" }, "aal"],
    [{ status: 403, code: "42501", message: "AAL2 session is required: verify your second factor (TOTP) first" }, "aal"],
    [{ status: 0, code: "", message: "TypeError: Failed to fetch" }, "network"],
    [{ name: "AuthRetryableFetchError", status: 0, message: "Failed to fetch" }, "network"],
    [{ status: 503, code: "PGRST002", message: "Could not connect to the store" }, "unavailable"],
    [{ status: 400, code: "PGRST100", message: "failed to parse filter" }, "other"],
  ] as const)("%o is %s", (failure, kind) => expect(classify(failure).kind).toBe(kind));
});

describe("problemOf", () => {
  it.each([
    // storage/v1 (StorageApiError's fields): a token whose session is gone, the two-step check, and refusals that are neither.
    [{ name: "StorageApiError", status: 400, statusCode: "403", message: "Session from session_id claim in JWT does not exist" }, "session"],
    [{ name: "StorageApiError", status: 400, statusCode: "403", message: "invalid JWT: unable to parse or verify signature, token is expired" }, "session"],
    [{ name: "StorageApiError", status: 400, statusCode: "403", message: "AAL2 session is required: verify your second factor (TOTP) first" }, "aal"],
    [{ name: "StorageApiError", status: 400, statusCode: "403", message: "new row violates row-level security policy" }, "other"],
    [{ name: "StorageApiError", status: 400, statusCode: "404", message: "Object not found" }, "other"],
    [{ name: "StorageApiError", status: 503, statusCode: "503", message: "Could not reach the database" }, "unavailable"],
    [{ name: "StorageUnknownError", message: "Failed to fetch" }, "network"],
    // An upload's refusal (upload.ts) has the same fields.
    [{ status: 400, statusCode: "403", message: "Session is no longer valid" }, "session"],
    // auth/v1 and rest/v1.
    [{ name: "AuthApiError", status: 403, code: "session_not_found", message: "Session from session_id claim in JWT does not exist" }, "session"],
    [{ code: "PGRST301", message: "JWT expired" }, "session"],
  ] as const)("%o is %s", (error, kind) => expect(problemOf(error, "code" in error && error.code === "PGRST301" ? 401 : undefined).kind).toBe(kind));
});
