import { describe, expect, it } from "vitest";
import { createClient } from "@supabase/supabase-js";
import { ALL_PRODUCTS, handledChange, inboxCsv, inboxPage, messageById, openCount, subscribersCsv, subscribersPage, updateMessage, waitlistCount, waitlistPage } from "./queries";

type Sent = { method: string; url: URL; headers: Headers; body: string | null };

/** client is the console's client against a fake server that records each request and answers 200 []. */
function client(answer: () => Response = () => new Response("[]", { status: 200, headers: { "Content-Range": "0-0/0" } })) {
  const sent: Sent[] = [];
  const c = createClient("http://studio.test", "anon-key", {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: {
      fetch: async (input, init) => {
        const req = new Request(input, init);
        sent.push({ method: req.method, url: new URL(req.url), headers: req.headers, body: init?.body ? String(init.body) : null });
        return answer();
      },
    },
  });
  return { c, sent };
}

const params = (u: URL) => [...u.searchParams.entries()].map(([k, v]) => `${k}=${v}`);

describe("inbox queries (PostgREST's contract)", () => {
  it("asks for page 1 of the open messages, newest first, with the exact total", async () => {
    const { c, sent } = client();
    await inboxPage(c, { q: "", filter: "open", page: 1 });
    const r = sent[0]!;
    expect(r.method).toBe("GET");
    expect(r.url.pathname).toBe("/rest/v1/contact_messages");
    expect(params(r.url)).toEqual([
      "select=id,received_at,name,email,company,phone,message,spam,handled_at,handled_by",
      "spam=eq.false",
      "handled_at=is.null",
      "order=received_at.desc",
      "offset=0",
      "limit=25",
    ]);
    expect(r.headers.get("Prefer")).toBe("count=exact");
  });

  it.each([
    ["handled", ["spam=eq.false", "handled_at=not.is.null"]],
    ["spam", ["spam=eq.true"]],
    ["all", []],
  ] as const)("filters %s", async (filter, want) => {
    const { c, sent } = client();
    await inboxPage(c, { q: "", filter, page: 1 });
    const got = params(sent[0]!.url).filter((p) => !/^(select|order|offset|limit)=/.test(p));
    expect(got).toEqual(want);
  });

  it("pages by 25 and searches name, e-mail, company and message", async () => {
    const { c, sent } = client();
    await inboxPage(c, { q: "  acme  ", filter: "all", page: 3 });
    expect(params(sent[0]!.url)).toEqual(expect.arrayContaining([
      "or=(name.ilike.*acme*,email.ilike.*acme*,company.ilike.*acme*,message.ilike.*acme*)",
      "offset=50",
      "limit=25",
    ]));
  });

  it("exports every row of the filter as CSV with the CLI's columns, unpaged", async () => {
    const { c, sent } = client(() => new Response("id\n", { status: 200, headers: { "Content-Type": "text/csv" } }));
    const { data } = await inboxCsv(c, { q: "x", filter: "spam", page: 4 });
    expect(data).toBe("id\n");
    const r = sent[0]!;
    expect(r.headers.get("Accept")).toBe("text/csv");
    expect(params(r.url)).toEqual([
      "select=id,received_at,spam,name,email,company,phone,message",
      "spam=eq.true",
      "or=(name.ilike.*x*,email.ilike.*x*,company.ilike.*x*,message.ilike.*x*)",
      "order=received_at.desc",
    ]);
  });

  it("counts open messages with HEAD", async () => {
    const { c, sent } = client(() => new Response(null, { status: 200, headers: { "Content-Range": "*/7" } }));
    const { count } = await openCount(c);
    expect(count).toBe(7);
    expect(sent[0]!.method).toBe("HEAD");
    expect(params(sent[0]!.url)).toEqual(["select=id", "spam=eq.false", "handled_at=is.null", "order=received_at.desc"]);
    expect(sent[0]!.headers.get("Prefer")).toBe("count=exact");
  });

  it("reads one message by id", async () => {
    const { c, sent } = client();
    await messageById(c, "m-1");
    expect(params(sent[0]!.url)).toEqual(expect.arrayContaining(["id=eq.m-1", "limit=1"]));
  });

  it("PATCHes handled_at and handled_by only, and asks for the row back", async () => {
    const { c, sent } = client();
    const now = new Date("2026-11-24T09:00:00Z");
    await updateMessage(c, "m-1", handledChange(true, "ada@studio.test", now));
    const r = sent[0]!;
    expect(r.method).toBe("PATCH");
    expect(params(r.url)).toEqual(["id=eq.m-1", "select=id,received_at,name,email,company,phone,message,spam,handled_at,handled_by"]);
    expect(JSON.parse(r.body ?? "")).toEqual({ handled_at: "2026-11-24T09:00:00.000Z", handled_by: "ada@studio.test" });
    expect(r.headers.get("Prefer")).toBe("return=representation");
    expect(handledChange(false, "ada@studio.test", now)).toEqual({ handled_at: null, handled_by: null });
  });
});

describe("waitlist and subscriber queries", () => {
  it("pages one product's waitlist, newest first", async () => {
    const { c, sent } = client();
    await waitlistPage(c, { q: "", filter: "saas-2", page: 2 });
    expect(sent[0]!.url.pathname).toBe("/rest/v1/waitlist");
    expect(params(sent[0]!.url)).toEqual(["select=product_id,email,joined_at", "product_id=eq.saas-2", "order=joined_at.desc", "offset=25", "limit=25"]);
  });

  it("searches every product's waitlist by address or product", async () => {
    const { c, sent } = client();
    await waitlistPage(c, { q: "ada", filter: ALL_PRODUCTS, page: 1 });
    expect(params(sent[0]!.url)).toContain("or=(email.ilike.*ada*,product_id.ilike.*ada*)");
    expect(params(sent[0]!.url).some((p) => p.startsWith("product_id=eq"))).toBe(false);
  });

  it("counts a product's sign-ups", async () => {
    const { c, sent } = client();
    await waitlistCount(c, "saas-3");
    expect(sent[0]!.method).toBe("HEAD");
    expect(params(sent[0]!.url)).toEqual(["select=email", "product_id=eq.saas-3"]);
  });

  it("pages and exports subscribers", async () => {
    const { c, sent } = client();
    await subscribersPage(c, { q: "@acme.test", filter: "all", page: 1 });
    await subscribersCsv(c, { q: "", filter: "all", page: 1 });
    expect(params(sent[0]!.url)).toEqual(["select=email,subscribed_at", 'or=(email.ilike."*@acme.test*")', "order=subscribed_at.desc", "offset=0", "limit=25"]);
    expect(params(sent[1]!.url)).toEqual(["select=email,subscribed_at", "order=subscribed_at.desc"]);
  });
});
