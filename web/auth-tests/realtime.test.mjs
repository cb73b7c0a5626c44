// The official @supabase/supabase-js client's channel(…) against the real
// studio binary's /realtime/v1: postgres_changes joins refused without a
// staff session, an INSERT from the contact function and an UPDATE made
// through /rest/v1 arriving live, both serializer versions, and a channel
// closed when its session is signed out elsewhere, and a join past
// --realtime-max-channels refused as Supabase Realtime refuses it, and (on
// PostgreSQL) the system messages of live changes paused and resumed.
//
// Run: node --experimental-websocket --test web/auth-tests/ (after make
// build); on PostgreSQL with STUDIO_TEST_DATABASE_URL set.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Studio } from "./studio.mjs";

let studio, base;

before(async () => {
  studio = new Studio();
  // Sessions are checked again every 200 ms, so that the sign-out test is quick.
  base = await studio.serve("--session-check", "200ms");
});

after(() => studio?.close());

/** subscribe joins a channel listening to changes of table; resolves once
 * joined (or rejects with the error), with the changes it receives. */
function subscribe(c, table, { event = "*", filter } = {}) {
  const received = [];
  const statuses = [];
  const waiters = [];
  const channel = c.channel(`inbox-${Math.random()}`)
    .on("postgres_changes", { event, schema: "public", table, ...(filter ? { filter } : {}) }, (payload) => {
      received.push(payload);
      for (const w of waiters.splice(0)) w();
    });
  const joined = new Promise((resolve, reject) => {
    channel.subscribe((status, err) => {
      statuses.push(status);
      for (const w of waiters.splice(0)) w();
      if (status === "SUBSCRIBED") resolve();
      if (status === "CHANNEL_ERROR" || status === "TIMED_OUT") reject(err ?? new Error(status));
    });
  });
  /** next waits until check() holds, up to ms. */
  const until = (check, ms = 3000) => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out; statuses ${statuses}, received ${received.length}`)), ms);
    const poll = () => (check() ? (clearTimeout(timer), resolve()) : waiters.push(poll));
    poll();
  });
  return { channel, joined, received, statuses, until };
}

async function signedIn(email, options) {
  const c = studio.client(base, options);
  await studio.signIn(c, email);
  return c;
}

test("a message sent from /contact arrives live, within 1 s", async () => {
  const c = await signedIn("ada@studio.test");
  const inbox = subscribe(c, "contact_messages", { event: "INSERT" });
  await inbox.joined;
  const sentAt = Date.now();
  const id = await studio.contact(base, { name: "Live Visitor", email: "live@example.com", message: "Are you there?" });
  await inbox.until(() => inbox.received.length === 1);
  assert.ok(Date.now() - sentAt < 1000, `arrived after ${Date.now() - sentAt} ms`);
  const [change] = inbox.received;
  assert.equal(change.eventType, "INSERT");
  assert.equal(change.schema, "public");
  assert.equal(change.table, "contact_messages");
  assert.equal(change.new.id, id);
  assert.equal(change.new.name, "Live Visitor");
  assert.equal(change.new.spam, false);
  assert.equal(change.new.handled_at, null);
  assert.ok(Date.parse(change.commit_timestamp) > 0);
  await c.removeChannel(inbox.channel);
});

test("a handled mark made through /rest/v1 by one member of staff reaches another", async () => {
  const ada = await signedIn("ada@studio.test");
  const grace = await signedIn("grace@studio.test");
  const id = await studio.contact(base, { name: "To Handle", email: "handle@example.com", message: "Please" });
  const watcher = subscribe(ada, "contact_messages", { event: "UPDATE" });
  const filtered = subscribe(ada, "contact_messages", { event: "UPDATE", filter: "handled_by=eq.nobody@studio.test" });
  await Promise.all([watcher.joined, filtered.joined]);
  const at = new Date().toISOString();
  const { error } = await grace.from("contact_messages").update({ handled_at: at, handled_by: "grace@studio.test" }).eq("id", id);
  assert.equal(error, null);
  await watcher.until(() => watcher.received.length === 1);
  const [change] = watcher.received;
  assert.equal(change.eventType, "UPDATE");
  assert.equal(change.new.id, id);
  assert.equal(change.new.handled_by, "grace@studio.test");
  assert.equal(Date.parse(change.new.handled_at), Date.parse(at));
  assert.deepEqual(change.old, { id });
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(filtered.received.length, 0, "a filter the row does not match gets nothing");
  await ada.removeAllChannels();
});

test("serializer 1.0.0 works as 2.0.0 does", async () => {
  const c = await signedIn("ada@studio.test", { realtime: { vsn: "1.0.0" } });
  assert.equal(c.realtime.vsn, "1.0.0");
  const inbox = subscribe(c, "subscribers", { event: "INSERT" });
  await inbox.joined;
  const res = await fetch(`${base}/functions/v1/subscribe-newsletter`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email: "live-reader@example.com" }),
  });
  assert.equal(res.status, 200);
  await inbox.until(() => inbox.received.length === 1);
  assert.equal(inbox.received[0].new.email, "live-reader@example.com");
  await c.removeAllChannels();
});

test("a refreshed token is pushed to the channel and kept; a bad one closes it", async () => {
  const c = await signedIn("grace@studio.test");
  const inbox = subscribe(c, "waitlist", { event: "INSERT" });
  const system = [];
  inbox.channel.on("system", {}, (p) => system.push(p));
  await inbox.joined;
  const { data, error } = await c.auth.refreshSession(); // the client pushes access_token to its channels
  assert.equal(error, null);
  await new Promise((r) => setTimeout(r, 200));
  const res = await fetch(`${base}/functions/v1/join-waitlist`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email: "early@example.com", productId: "saas-2" }),
  });
  assert.equal(res.status, 200);
  await inbox.until(() => inbox.received.length === 1);
  assert.equal(inbox.received[0].new.email, "early@example.com");
  assert.ok(data.session.access_token);

  await c.realtime.setAuth("not-a-token");
  await inbox.until(() => inbox.statuses.includes("CLOSED"));
  assert.ok(system.some((p) => p.status === "error" && /Invalid access token/.test(p.message)), JSON.stringify(system));
});

test("a join without a staff session is refused", async () => {
  const anon = studio.client(base);
  const inbox = subscribe(anon, "contact_messages");
  await assert.rejects(inbox.joined, /Sign in first/);
  await anon.removeAllChannels();

  const c = await signedIn("ada@studio.test");
  const bad = subscribe(c, "auth_users");
  await assert.rejects(bad.joined, /not an exposed table/);
  await c.removeAllChannels();
});

test("a session signed out elsewhere is disconnected", async () => {
  const c = await signedIn("mary@studio.test");
  const inbox = subscribe(c, "contact_messages");
  const system = [];
  inbox.channel.on("system", {}, (p) => system.push(p));
  await inbox.joined;
  const elsewhere = await signedIn("mary@studio.test");
  assert.equal((await elsewhere.auth.signOut({ scope: "global" })).error, null);
  await inbox.until(() => inbox.statuses.includes("CLOSED"), 3000);
  assert.ok(system.some((p) => p.status === "error" && /session has ended/.test(p.message)), JSON.stringify(system));
  await studio.contact(base, { name: "After Sign-out", email: "after@example.com", message: "Hello?" });
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(inbox.received.length, 0);
});

test("a session at aal1 is refused when the server requires MFA", async () => {
  const c = await studio.mfaClient("mary@studio.test");
  const inbox = subscribe(c, "contact_messages");
  await assert.rejects(inbox.joined, /second factor/);
  await c.removeAllChannels();
});

test("a join past --realtime-max-channels is refused with Supabase Realtime's reply", async () => {
  const c = studio.client(await studio.serve("--realtime-max-channels", "2"));
  await studio.signIn(c, "ada@studio.test");
  const joined = [subscribe(c, "contact_messages"), subscribe(c, "waitlist")];
  await Promise.all(joined.map((s) => s.joined));
  const reason = "ChannelRateLimitReached: Too many channels";
  await assert.rejects(subscribe(c, "subscribers").joined, (err) => {
    assert.equal(err.message, reason);
    assert.deepEqual(err.cause, { reason });
    return true;
  });
  await c.removeAllChannels();
});

test("a channel hears when live changes pause and resume (PostgreSQL), as channel.on('system') reads them",
  { skip: !process.env.STUDIO_TEST_DATABASE_URL && "SQLite has no change feed to lose" }, async () => {
    const c = await signedIn("ada@studio.test");
    const system = [];
    const inbox = subscribe(c, "contact_messages");
    inbox.channel.on("system", {}, (payload) => system.push(payload));
    /** until polls check every 20 ms, up to 5 s (system messages do not wake inbox.until). */
    const until = async (check) => {
      for (const deadline = Date.now() + 5000; !check(); await new Promise((r) => setTimeout(r, 20))) {
        if (Date.now() > deadline) throw new Error(`timed out; system messages ${JSON.stringify(system)}`);
      }
    };
    await inbox.joined;
    await until(() => system.length === 1); // the join's "Subscribed to PostgreSQL"
    // End the server's LISTEN connection, as a PostgreSQL restart does.
    const { execFileSync } = await import("node:child_process");
    execFileSync("psql", [studio.admin, "-qAtc",
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${studio.database}' AND query = 'LISTEN studio_changes'`]);
    await until(() => system.length === 3);
    const [paused, resumed] = system.slice(1);
    assert.equal(paused.extension, "postgres_changes");
    assert.equal(paused.status, "error");
    assert.match(paused.message, /Live changes are paused/);
    assert.equal(resumed.extension, "postgres_changes");
    assert.equal(resumed.status, "ok");
    await c.removeChannel(inbox.channel);
  });
