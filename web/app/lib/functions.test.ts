import { describe, expect, it, vi } from "vitest";
import { FunctionError, GENERIC_FAILURE, invokeFunction, newIdempotencyKey } from "./functions";
import { joinWaitlist, subscribeNewsletter } from "./signup";

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json; charset=utf-8" } });
}

describe("invokeFunction", () => {
  it("POSTs JSON to /functions/v1/<name> and resolves with the answer", async () => {
    const fetch = vi.fn(async () => jsonResponse(200, { id: "m1", received_at: "2025-05-16T00:00:00Z" }));
    const got = await invokeFunction("submit-contact", { name: "Ada" }, { fetch });
    expect(got).toEqual({ id: "m1", received_at: "2025-05-16T00:00:00Z" });
    expect(fetch).toHaveBeenCalledWith("/functions/v1/submit-contact", expect.objectContaining({ method: "POST", body: '{"name":"Ada"}' }));
    const init = (fetch.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect(new Headers(init.headers).get("Content-Type")).toBe("application/json");
  });

  it("sends an Idempotency-Key only when given one", async () => {
    const fetch = vi.fn(async () => jsonResponse(200, { id: "m1" }));
    const key = newIdempotencyKey();
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(newIdempotencyKey()).not.toBe(key);
    await invokeFunction("submit-contact", {}, { fetch, idempotencyKey: key });
    await invokeFunction("submit-contact", {}, { fetch });
    const sent = (fetch.mock.calls as unknown as [string, RequestInit][]).map(([, init]) => new Headers(init.headers).get("Idempotency-Key"));
    expect(sent).toEqual([key, null]);
  });

  it("rejects with the server's message and fields on a 400", async () => {
    const fetch = vi.fn(async () => jsonResponse(400, { error: "Name is required", fields: { name: "Name is required" } }));
    const err = await invokeFunction("submit-contact", {}, { fetch }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FunctionError);
    expect(err).toMatchObject({ message: "Name is required", status: 400, fromServer: true, fields: { name: "Name is required" } });
  });

  it("treats a 200 whose body carries error as a failure", async () => {
    const fetch = vi.fn(async () => jsonResponse(200, { error: "nope" }));
    await expect(invokeFunction("x", {}, { fetch })).rejects.toMatchObject({ message: "nope", fromServer: true });
  });

  it("gives a generic message when the network fails or the answer is not JSON", async () => {
    const down = vi.fn(async () => {
      throw new TypeError("Failed to fetch");
    });
    await expect(invokeFunction("x", {}, { fetch: down })).rejects.toMatchObject({ message: GENERIC_FAILURE, fromServer: false, status: 0 });
    const html = vi.fn(async () => new Response("<h1>Bad gateway</h1>", { status: 502, headers: { "Content-Type": "text/html" } }));
    await expect(invokeFunction("x", {}, { fetch: html })).rejects.toMatchObject({ message: GENERIC_FAILURE, status: 502 });
  });
});

describe("sign-ups", () => {
  it("subscribeNewsletter and joinWaitlist call their functions and reject with the server's message", async () => {
    const calls: [string, unknown][] = [];
    const fetch = vi.fn(async (url: string, init: RequestInit) => {
      calls.push([url, JSON.parse(init.body as string)]);
      return url.endsWith("join-waitlist") ? jsonResponse(400, { error: "This product has no waitlist", fields: {} }) : jsonResponse(200, { ok: true });
    });
    vi.stubGlobal("fetch", fetch);
    try {
      await expect(subscribeNewsletter("reader@example.com")).resolves.toBeUndefined();
      await expect(joinWaitlist("reader@example.com", "aurion")).rejects.toThrow("This product has no waitlist");
    } finally {
      vi.unstubAllGlobals();
    }
    expect(calls).toEqual([
      ["/functions/v1/subscribe-newsletter", { email: "reader@example.com" }],
      ["/functions/v1/join-waitlist", { email: "reader@example.com", productId: "aurion" }],
    ]);
  });
});
