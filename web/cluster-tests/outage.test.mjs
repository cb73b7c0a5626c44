// Two instances on a PostgreSQL of the test's own, stopped for 10 s while a
// visitor keeps sending messages to one of them and a console follows the
// inbox through the other with supabase-js, as web/app/admin/data/live.ts does:
// live inserts, and a read of the inbox when the server says live changes
// resumed. The server must say when they pause and resume, and every
// message acknowledged (200) must be on the console within 2 s of
// PostgreSQL being back (or of its acknowledgement, if later).
//
// Run: node --experimental-websocket --test web/cluster-tests/ (after make
// build; make test-cluster does this).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Studio } from "../auth-tests/studio.mjs";
import { sleep } from "../auth-tests/harness.mjs";
import { startPostgres } from "./postgres.mjs";

const outage = 10_000;
const healWithin = 2_000;

let pg, studio, console_, visitor;

before(async () => {
  pg = startPostgres();
  studio = new Studio({ postgres: pg.url });
  console_ = await studio.serve();
  visitor = await studio.serve();
});

after(async () => {
  await studio?.close();
  pg?.close();
});

test("a console on one instance misses nothing sent to the other across a 10 s PostgreSQL outage", async () => {
  const c = studio.client(console_);
  await studio.signIn(c, "outage@studio.test");

  const seen = new Map(); // marker → when the console first had it
  const see = (marker) => seen.has(marker) || seen.set(marker, Date.now());
  const system = []; // [status, when]
  const reload = async () => {
    const { data, error } = await c.from("contact_messages").select("message");
    if (error) throw new Error(`reload: ${error.message}`);
    for (const row of data) see(row.message);
  };
  let reloads = Promise.resolve();
  const channel = c.channel("outage-inbox")
    .on("postgres_changes", { event: "INSERT", schema: "public", table: "contact_messages" }, (p) => see(p.new.message))
    .on("system", {}, (msg) => {
      if (msg.extension !== "postgres_changes") return;
      system.push([msg.status, Date.now()]);
      if (msg.status === "ok") reloads = reloads.then(reload);
    });
  await new Promise((resolve, reject) => channel.subscribe((status, err) => {
    if (status === "SUBSCRIBED") resolve();
    if (status === "CHANNEL_ERROR" || status === "TIMED_OUT") reject(err ?? new Error(status));
  }));

  // A visitor sends a message every 100 ms to the other instance.
  const acked = new Map(); // marker → when it was answered 200
  let refused = 0;
  let sending = true;
  const sender = (async () => {
    for (let i = 0; sending; i++) {
      const marker = `outage-${i}-end`;
      try {
        const res = await fetch(`${visitor}/functions/v1/submit-contact`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ name: "Outage Test", email: "visitor@example.com", company: null, phone: null, message: marker }),
        });
        if (res.status === 200) acked.set(marker, Date.now());
        else refused++;
        await res.arrayBuffer();
      } catch {
        refused++;
      }
      await sleep(100);
    }
  })();

  await sleep(1_000);
  const stoppedAt = Date.now();
  pg.stop("immediate");
  await sleep(outage);
  pg.start();
  const backAt = Date.now();
  await sleep(3_000);
  sending = false;
  await sender;
  await sleep(healWithin);
  await reloads;

  const paused = system.find(([s, at]) => s === "error" && at >= stoppedAt);
  const resumed = system.find(([s, at]) => s === "ok" && at >= backAt);
  assert.ok(paused, `no "paused" system message during the outage: ${JSON.stringify(system)}`);
  assert.ok(resumed, `no "resumed" system message after PostgreSQL came back: ${JSON.stringify(system)}`);
  assert.ok(refused > 0, "no message was refused: the outage did not reach the server");
  const before = [...acked].filter(([, at]) => at < stoppedAt).length;
  const after = [...acked].filter(([, at]) => at > backAt).length;
  assert.ok(before > 0 && after > 0, `messages acknowledged before the outage ${before}, after ${after}`);
  const late = [];
  for (const [marker, at] of acked) {
    const due = Math.max(at, backAt) + healWithin;
    if (!seen.has(marker) || seen.get(marker) > due) late.push(`${marker} (${seen.has(marker) ? `${seen.get(marker) - due} ms late` : "never"})`);
  }
  assert.deepEqual(late, [], `acknowledged messages the console did not show in time`);
  console.log(`outage: paused ${paused[1] - stoppedAt} ms after the stop, resumed ${resumed[1] - backAt} ms after the start; ` +
    `${acked.size} acknowledged, ${refused} refused; last gap ${Math.max(0, ...[...acked].map(([m, at]) => seen.get(m) - Math.max(at, backAt)))} ms`);
  await c.removeChannel(channel);
});
