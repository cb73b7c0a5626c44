// The official @supabase/supabase-js client's from(…) against the real
// studio binary's /rest/v1: every filter operator, or, ordering with nulls,
// paging, counts, HEAD, CSV export (compared with "studio messages list
// --format csv"), PATCH, and the answers to those who may not read.
//
// Run: node --test web/auth-tests/ (after make build); on PostgreSQL with
// STUDIO_TEST_DATABASE_URL set (scripts/with-postgres).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Studio } from "./studio.mjs";
import { sleep } from "./harness.mjs";

let studio, base, db, staffEmail;
const messages = {}; // name → id

before(async () => {
  studio = new Studio();
  base = await studio.serve();
  db = studio.client(base);
  staffEmail = "ada@studio.test";
  await studio.signIn(db, staffEmail);
  // Sent in this order, so received_at grows.
  const sent = [
    { name: "Ada Lovelace", email: "ada@example.com", company: "Analytical Engines", message: "Hello there" },
    { name: "Zoë Ñúñez", email: "zoe@example.com", phone: "+1 415 555 0142", message: "Need a quote, please" },
    { name: "Grace Hopper", email: "grace@navy.mil", company: "US Navy", message: "COBOL (and more)" },
    { name: "grace hopper", email: "g.hopper@example.com", company: "navy", message: "100% sure_thing" },
    { name: "O'Brien, Pat", email: "pat@example.com", company: "A,B (C)", message: 'quote"d\nline two' },
  ];
  for (const m of sent) messages[m.name] = await studio.contact(base, m);
  for (const [email, productId] of [["w1@example.com", "saas-2"], ["w2@example.com", "saas-3"], ["w3@example.com", "saas-2"]]) {
    const res = await fetch(`${base}/functions/v1/join-waitlist`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email, productId }),
    });
    assert.equal(res.status, 200);
  }
  const res = await fetch(`${base}/functions/v1/subscribe-newsletter`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email: "reader@example.com" }),
  });
  assert.equal(res.status, 200);
});

after(() => studio?.close());

/** names runs a query and returns the names of the rows, in order. */
async function names(query) {
  const { data, error, status } = await query;
  assert.equal(error, null, `status ${status}`);
  return data.map((r) => r.name);
}

const all = ["Ada Lovelace", "Zoë Ñúñez", "Grace Hopper", "grace hopper", "O'Brien, Pat"];

test("select: every column, listed columns, types as PostgREST writes them", async () => {
  const { data, error } = await db.from("contact_messages").select("*").eq("name", "Ada Lovelace");
  assert.equal(error, null);
  assert.deepEqual(Object.keys(data[0]), ["id", "received_at", "name", "email", "company", "phone", "message", "spam", "handled_at", "handled_by"]);
  assert.equal(data[0].id, messages["Ada Lovelace"]);
  assert.match(data[0].received_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00$/);
  assert.equal(data[0].spam, false);
  assert.equal(data[0].phone, null);
  const listed = await db.from("contact_messages").select("name, email").eq("name", "Zoë Ñúñez").single();
  assert.deepEqual(listed.data, { name: "Zoë Ñúñez", email: "zoe@example.com" });
});

test("filters: eq, neq, gt, gte, lt, lte", async () => {
  const rows = (await db.from("contact_messages").select("name, received_at").order("received_at")).data;
  const third = rows[2].received_at;
  const t = (q) => names(q.order("received_at"));
  assert.deepEqual(await t(db.from("contact_messages").select("name").eq("email", "grace@navy.mil")), ["Grace Hopper"]);
  assert.deepEqual(await t(db.from("contact_messages").select("name").neq("spam", true)), all);
  assert.deepEqual(await t(db.from("contact_messages").select("name").gt("received_at", third)), all.slice(3));
  assert.deepEqual(await t(db.from("contact_messages").select("name").gte("received_at", third)), all.slice(2));
  assert.deepEqual(await t(db.from("contact_messages").select("name").lt("received_at", third)), all.slice(0, 2));
  assert.deepEqual(await t(db.from("contact_messages").select("name").lte("received_at", third)), all.slice(0, 3));
});

test("filters: like, ilike, is, in, not, or", async () => {
  const t = (q) => names(q.order("received_at"));
  assert.deepEqual(await t(db.from("contact_messages").select("name").like("name", "%Hopper")), ["Grace Hopper"]);
  assert.deepEqual(await t(db.from("contact_messages").select("name").ilike("name", "%hopper")), ["Grace Hopper", "grace hopper"]);
  assert.deepEqual(await t(db.from("contact_messages").select("name").ilike("name", "ZOË%")), ["Zoë Ñúñez"]);
  assert.deepEqual(await t(db.from("contact_messages").select("name").like("message", "*100\\%*")), ["grace hopper"]);
  assert.deepEqual(await t(db.from("contact_messages").select("name").is("company", null)), ["Zoë Ñúñez"]);
  assert.deepEqual(await t(db.from("contact_messages").select("name").is("handled_at", null).is("spam", false)), all);
  assert.deepEqual(await t(db.from("contact_messages").select("name").not("company", "is", null)), all.filter((n) => n !== "Zoë Ñúñez"));
  assert.deepEqual(await t(db.from("contact_messages").select("name").in("company", ["A,B (C)", "navy", "none"])), ["grace hopper", "O'Brien, Pat"]);
  assert.deepEqual(await t(db.from("contact_messages").select("name").in("id", [])), []);
  const search = "navy";
  assert.deepEqual(await t(db.from("contact_messages").select("name")
    .or(`name.ilike.*${search}*,email.ilike.*${search}*,company.ilike.*${search}*,message.ilike.*${search}*`)), ["Grace Hopper", "grace hopper"]);
  assert.deepEqual(await t(db.from("contact_messages").select("name").or("company.eq.navy,and(phone.not.is.null,spam.is.false)")),
    ["Zoë Ñúñez", "grace hopper"]);
  const readers = await db.from("subscribers").select("email").like("email", "reader@*");
  assert.deepEqual(readers.data, [{ email: "reader@example.com" }]);
});

test("order: directions, nulls first and last, text by bytes", async () => {
  const n = (opts) => names(db.from("contact_messages").select("name").order("company", opts).order("received_at"));
  assert.deepEqual(await n({ ascending: true }), ["O'Brien, Pat", "Ada Lovelace", "Grace Hopper", "grace hopper", "Zoë Ñúñez"]);
  assert.deepEqual(await n({ ascending: true, nullsFirst: true }), ["Zoë Ñúñez", "O'Brien, Pat", "Ada Lovelace", "Grace Hopper", "grace hopper"]);
  assert.deepEqual(await n({ ascending: false }), ["Zoë Ñúñez", "grace hopper", "Grace Hopper", "Ada Lovelace", "O'Brien, Pat"]);
  assert.deepEqual(await n({ ascending: false, nullsFirst: false }), ["grace hopper", "Grace Hopper", "Ada Lovelace", "O'Brien, Pat", "Zoë Ñúñez"]);
  assert.deepEqual(await names(db.from("contact_messages").select("name").order("received_at", { ascending: false })), [...all].reverse());
});

test("paging: range, limit, exact counts, HEAD", async () => {
  const page = await db.from("contact_messages").select("name", { count: "exact" }).order("received_at", { ascending: false }).range(1, 2);
  assert.equal(page.error, null);
  assert.equal(page.status, 206);
  assert.equal(page.count, 5);
  assert.deepEqual(page.data.map((r) => r.name), [all[3], all[2]]);
  const last = await db.from("contact_messages").select("name", { count: "exact" }).order("received_at").range(4, 10);
  assert.deepEqual([last.status, last.count, last.data.map((r) => r.name)], [206, 5, ["O'Brien, Pat"]]);
  const limited = await db.from("contact_messages").select("name").order("received_at").limit(2);
  assert.deepEqual(limited.data.map((r) => r.name), all.slice(0, 2));
  const head = await db.from("contact_messages").select("*", { count: "exact", head: true }).ilike("name", "%hopper%");
  assert.deepEqual([head.error, head.status, head.count, head.data], [null, 200, 2, null]);
  const waitlist = await db.from("waitlist").select("product_id", { count: "exact", head: true }).eq("product_id", "saas-2");
  assert.equal(waitlist.count, 2);
  const past = await db.from("contact_messages").select("name", { count: "exact" }).range(10, 19);
  assert.equal(past.error?.code, "PGRST103");
  assert.equal(past.status, 416);
});

test("CSV export: the columns and rows of studio messages list --format csv", async () => {
  const { data, error } = await db.from("contact_messages").select().order("received_at").order("id").csv();
  assert.equal(error, null);
  assert.equal(data, studio.cli("messages", "list", "--format", "csv"));
  const waitlist = await db.from("waitlist").select().order("product_id").order("joined_at").order("email").csv();
  assert.equal(waitlist.data, studio.cli("waitlist", "list", "--format", "csv"));
  const subscribers = await db.from("subscribers").select().order("subscribed_at").csv();
  assert.equal(subscribers.data, studio.cli("subscribers", "list", "--format", "csv"));
  const filtered = await db.from("contact_messages").select().ilike("name", "%hopper").order("received_at").csv();
  assert.equal(filtered.data.trim().split("\n").length, 3, filtered.data);
});

test("PATCH: mark handled and spam with return=representation", async () => {
  const id = messages["Grace Hopper"];
  const at = new Date().toISOString();
  const { data, error, status } = await db.from("contact_messages")
    .update({ handled_at: at, handled_by: staffEmail }).eq("id", id).select("id, handled_at, handled_by");
  assert.equal(error, null);
  assert.equal(status, 200);
  assert.equal(data.length, 1);
  assert.equal(Date.parse(data[0].handled_at), Date.parse(at));
  assert.equal(data[0].handled_by, staffEmail);
  const handled = await names(db.from("contact_messages").select("name").not("handled_at", "is", null));
  assert.deepEqual(handled, ["Grace Hopper"]);
  const spam = await db.from("contact_messages").update({ spam: true }).eq("id", messages["Ada Lovelace"]);
  assert.deepEqual([spam.error, spam.status], [null, 204]);
  const reopened = await db.from("contact_messages").update({ handled_at: null, handled_by: null, spam: false })
    .in("id", [id, messages["Ada Lovelace"]]).select("name, spam, handled_at");
  assert.deepEqual(reopened.data.map((r) => [r.spam, r.handled_at]), [[false, null], [false, null]]);

  const forbidden = await db.from("contact_messages").update({ message: "edited" }).eq("id", id);
  assert.deepEqual([forbidden.status, forbidden.error?.code], [403, "42501"]);
  const someoneElse = await db.from("contact_messages").update({ handled_by: "bob@studio.test" }).eq("id", id);
  assert.deepEqual([someoneElse.status, someoneElse.error?.code], [403, "42501"]);
  const everything = await db.from("contact_messages").update({ spam: true }).neq("id", "").select();
  assert.equal(everything.error, null, "a filter that selects every row is allowed");
  await db.from("contact_messages").update({ spam: false }).neq("id", "");
  const noFilter = await db.from("contact_messages").update({ spam: true });
  assert.deepEqual([noFilter.status, noFilter.error?.code], [400, "21000"]);
});

test("errors: PostgREST's codes for unknown tables, columns and operators", async () => {
  const unknownTable = await db.from("auth_users").select();
  assert.deepEqual([unknownTable.status, unknownTable.error?.code], [404, "PGRST205"]);
  const unknownColumn = await db.from("contact_messages").select("password");
  assert.deepEqual([unknownColumn.status, unknownColumn.error?.code], [400, "42703"]);
  const unknownOperator = await db.from("contact_messages").select().filter("name", "match", "^A");
  assert.deepEqual([unknownOperator.status, unknownOperator.error?.code], [400, "PGRST100"]);
  const badTime = await db.from("contact_messages").select().gt("received_at", "yesterday");
  assert.deepEqual([badTime.status, badTime.error?.code], [400, "22007"]);
  const insert = await db.from("contact_messages").insert({ name: "x" });
  assert.deepEqual([insert.status, insert.error?.code], [405, "PGRST117"]);
});

test("rpc analytics_summary: a page shown is in staff's summary, filtered; refused without a session", async () => {
  const chrome = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
  // A page shows itself by fetching /seen (its inline style's background).
  const seen = await fetch(`${base}/seen`, { headers: { "User-Agent": chrome, Referer: `${base}/about?utm_source=rest-test` } });
  assert.equal(seen.status, 200);
  const since = new Date(Date.now() - 3600_000).toISOString();
  const until = new Date(Date.now() + 3600_000).toISOString();
  let summary;
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(200)) {
    const { data, error } = await db.rpc("analytics_summary", { since, until, interval: "hour" });
    assert.equal(error, null);
    summary = data;
    if (summary.views > 0) break;
  }
  assert.equal(summary.enabled, true);
  assert.deepEqual(summary.pages, [{ path: "/about", views: 1, visitors: 1 }]);
  assert.deepEqual(summary.sources, [{ source: "rest-test", visitors: 1 }]);
  assert.equal(summary.series.length, 2);

  const narrowed = await db.rpc("analytics_summary", { since, until, interval: "hour", filters: { browser: "Firefox" } });
  assert.equal(narrowed.error, null);
  assert.equal(narrowed.data.views, 0);
  const wrong = await db.rpc("analytics_summary", { since: until, until: since, interval: "hour" });
  assert.equal(wrong.error?.code, "22023");
  assert.match(wrong.error.message, /until must be after since/);
  const anon = await studio.client(base).rpc("analytics_summary", { since, until, interval: "hour" });
  assert.deepEqual([anon.status, anon.error?.code, anon.data], [401, "PGRST302", null]);
});

test("authorization: no session, the anon key, a signed-out session", async () => {
  const anon = studio.client(base);
  const { data, error, status } = await anon.from("contact_messages").select();
  assert.deepEqual([status, error?.code, data], [401, "PGRST302", null]);
  const noKey = await fetch(`${base}/rest/v1/contact_messages`);
  assert.equal(noKey.status, 401);
  assert.equal((await noKey.json()).code, "PGRST302");

  const other = studio.client(base);
  await studio.signIn(other, "grace@studio.test");
  assert.equal((await other.from("subscribers").select()).error, null);
  const { data: { session } } = await other.auth.getSession();
  const bystander = studio.client(base);
  await studio.signIn(bystander, "grace@studio.test");
  assert.equal((await bystander.auth.signOut({ scope: "global" })).error, null);
  const signedOut = await fetch(`${base}/rest/v1/subscribers`, {
    headers: { apikey: studio.anonKey, Authorization: `Bearer ${session.access_token}` },
  });
  assert.equal(signedOut.status, 401);
  assert.equal((await signedOut.json()).code, "PGRST303");
});

test("authorization: a session at aal1 when the server requires MFA", async () => {
  const c = await studio.mfaClient("mary@studio.test");
  const { status, error } = await c.from("contact_messages").select();
  assert.deepEqual([status, error?.code], [403, "42501"]);
});
