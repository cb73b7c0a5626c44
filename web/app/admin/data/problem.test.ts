import { describe, expect, it } from "vitest";
import { classify } from "./problem";

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
