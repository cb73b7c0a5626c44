import { execFileSync } from "node:child_process";
import { createClient, FunctionsHttpError } from "@supabase/supabase-js";
import { test, expect } from "@playwright/test";
import { baseURL, dataDir, failingBaseURL } from "../playwright.config";
import { invokeFunction, FunctionError } from "../app/lib/functions";
import { functionMessages, signupEmailRule } from "../app/lib/validation";

/**
 * The backend functions end to end, from Node, against the real binary:
 * the official Supabase client's functions.invoke, and the site's own client
 * (app/lib/functions.ts, which app/lib/signup.ts uses) for the sign-ups.
 */

function list(what: "messages" | "waitlist" | "subscribers"): Record<string, unknown>[] {
  const out = execFileSync("../bin/studio", [what, "list", "--format", "json", "--data", dataDir!], { encoding: "utf8" });
  return JSON.parse(out) as Record<string, unknown>[];
}

/**
 * supabaseClient is the official client as a site would create it. Node 20
 * has no WebSocket, which the client's realtime part wants at construction;
 * it never connects in these tests, so a stand-in suffices.
 */
function supabaseClient(url: string) {
  class NoWebSocket {
    constructor() {
      throw new Error("realtime is not used");
    }
  }
  return createClient(url, "anon-key-for-tests", {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: NoWebSocket as never },
  });
}

const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2)}`;

test.describe("official client compatibility", () => {
  // The client sends Authorization: Bearer <key>, apikey and x-client-info.
  const supabase = supabaseClient(baseURL);

  test("functions.invoke('submit-contact') stores the message", async () => {
    const marker = `supabase-js ${unique()}`;
    const { data, error } = await supabase.functions.invoke("submit-contact", {
      body: { name: "Grace Hopper", email: "grace@example.com", company: null, phone: null, message: marker },
    });
    expect(error).toBeNull();
    expect(data).toEqual({ id: expect.any(String), received_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    const stored = list("messages").filter((m) => m.message === marker);
    expect(stored).toEqual([expect.objectContaining({ id: data.id, name: "Grace Hopper" })]);
  });

  test("functions.invoke gets the error and fields of a 400", async () => {
    const { data, error } = await supabase.functions.invoke("submit-contact", { body: { name: "", email: "x", message: "" } });
    expect(data).toBeNull();
    expect(error).toBeInstanceOf(FunctionsHttpError);
    const body = await (error as FunctionsHttpError).context.json();
    expect(body.error).toBe("Name is required and must be less than 100 characters");
    expect(Object.keys(body.fields).sort()).toEqual(["email", "message", "name"]);
  });

  test("functions.invoke gets a 503 with an error when the store is down", async () => {
    const down = supabaseClient(failingBaseURL);
    const { error } = await down.functions.invoke("subscribe-newsletter", { body: { email: "a@example.com" } });
    expect(error).toBeInstanceOf(FunctionsHttpError);
    const ctx = (error as FunctionsHttpError).context as Response;
    expect(ctx.status).toBe(503);
    expect((await ctx.json()).error).toBe(functionMessages.unavailable);
  });
});

test.describe("sign-ups end to end", () => {
  test("subscribe-newsletter is stored once, however often it is sent", async () => {
    const email = `reader-${unique()}@example.com`;
    await invokeFunction("subscribe-newsletter", { email }, { baseUrl: baseURL });
    await invokeFunction("subscribe-newsletter", { email: email.toUpperCase() }, { baseUrl: baseURL });
    expect(list("subscribers").filter((s) => s.email === email)).toHaveLength(1);
  });

  test("join-waitlist is stored once per product, only for coming-soon products", async () => {
    const email = `early-${unique()}@example.com`;
    await invokeFunction("join-waitlist", { email, productId: "saas-2" }, { baseUrl: baseURL });
    await invokeFunction("join-waitlist", { email, productId: "saas-2" }, { baseUrl: baseURL });
    await invokeFunction("join-waitlist", { email, productId: "saas-3" }, { baseUrl: baseURL });
    const err = await invokeFunction("join-waitlist", { email, productId: "aurion" }, { baseUrl: baseURL }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FunctionError);
    expect((err as FunctionError).status).toBe(400);
    const mine = list("waitlist").filter((e) => e.email === email);
    expect(mine.map((e) => e.product_id)).toEqual(["saas-2", "saas-3"]);
  });

  test("an invalid address is refused with the shared message", async () => {
    const err = await invokeFunction("subscribe-newsletter", { email: "nope" }, { baseUrl: baseURL }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400, message: signupEmailRule.message, fields: { email: signupEmailRule.message } });
  });
});
