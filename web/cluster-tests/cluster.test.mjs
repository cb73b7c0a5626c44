// Two studio instances on one PostgreSQL behind nginx (round robin, the
// configuration of deploy/nginx/studio.conf) behave as one site, checked
// through the balancer with plain HTTP and the official supabase-js client:
// the rate limits count in total, each message is mailed once, the signing
// keys are the same, a sign-out or a staff removal ends the session
// everywhere, a message stored on one instance reaches a console on the
// other within 1 s, a file uploaded through one is served by the other
// (a shared S3 backend), and when an instance is SIGKILLed under load no
// message is lost or stored twice.
//
// Run: scripts/with-postgres scripts/with-s3 with STUDIO_STORAGE_URL set to
// STUDIO_TEST_S3_URL, node --experimental-websocket --test web/cluster-tests/
// (after make build; make test-cluster does this).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Studio } from "../auth-tests/studio.mjs";
import { sleep } from "../auth-tests/harness.mjs";
import { startCapture, body } from "../auth-tests/smtp-capture.mjs";
import { startBalancer } from "./balancer.mjs";

const ops = "ops@studio.test";
const functionLimit = 5; // --rate-limit: submissions per client and function
const authLimit = 4; // --auth-rate-limit: /otp and /verify requests per client

let studio, smtp, lb, a, b;

before(async () => {
  if (!process.env.STUDIO_TEST_DATABASE_URL) {
    throw new Error("the cluster test needs PostgreSQL: run it with scripts/with-postgres (make test-cluster)");
  }
  smtp = await startCapture();
  studio = new Studio();
  const flags = ["--rate-limit", `${functionLimit}/10m`, "--auth-rate-limit", `${authLimit}/5m`,
    "--trusted-proxies", "127.0.0.1", "--smtp-url", smtp.url, "--notify-to", ops, "--session-check", "200ms"];
  a = { url: await studio.serve(...flags), proc: studio.servers.at(-1) };
  b = { url: await studio.serve(...flags), proc: studio.servers.at(-1) };
  lb = await startBalancer([a.url, b.url]);
});

after(async () => {
  await lb?.close();
  await studio?.close();
  smtp?.close();
});

let clientNumber = 0;
/** visitor is a new client address, as nginx passes it on in X-Forwarded-For. */
const visitor = () => {
  clientNumber++;
  return `198.51.${(clientNumber >> 8) & 255}.${clientNumber & 255}`;
};

/** post sends a JSON body to a function as the visitor at address from. */
const post = (base, fn, payload, from = visitor()) =>
  fetch(`${base}/functions/v1/${fn}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": from },
    body: JSON.stringify(payload),
  });

const contact = (marker) => ({ name: "Cluster Test", email: "visitor@example.com", company: null, phone: null, message: marker });

/** user is GET /auth/v1/user on base with a token: its status and error
 * code ("ok" for 200). */
const user = async (base, token) => {
  const res = await fetch(`${base}/auth/v1/user`, { headers: { Authorization: `Bearer ${token}`, apikey: studio.anonKey } });
  return `${res.status} ${res.ok ? "ok" : (await res.json()).error_code}`;
};

/** mailsFor counts the mails to ops that carry each marker. */
function mailsFor(markers) {
  const count = new Map(markers.map((m) => [m, 0]));
  for (const mail of smtp.mails) {
    if (!mail.to.includes(ops)) continue;
    const text = body(mail);
    for (const m of markers) if (text.includes(m)) count.set(m, count.get(m) + 1);
  }
  return count;
}

test("the signing keys are the same on every instance", async () => {
  const jwks = await Promise.all([a, b].map(async (s) => (await fetch(`${s.url}/auth/v1/.well-known/jwks.json`)).json()));
  assert.ok(jwks[0].keys.length > 0);
  assert.deepEqual(jwks[0], jwks[1]);
});

test("a file uploaded through one instance is served by the other, and a replacement once it has heard of it", async () => {
  assert.ok(process.env.STUDIO_STORAGE_URL?.startsWith("s3://"), "the instances need a shared S3 backend: run under scripts/with-s3 (make test-cluster)");
  const c = studio.client(a.url);
  const session = await studio.signIn(c, "files@studio.test");
  const bucket = `shared-${Date.now()}`;
  assert.equal((await c.storage.createBucket(bucket, { public: true })).error, null);
  const files = c.storage.from(bucket);
  const publicURL = (base) => `${base}/storage/v1/object/public/${bucket}/templates/deck.txt`;
  assert.equal((await files.upload("templates/deck.txt", "first version", { contentType: "text/plain" })).error, null);
  // Each instance serves it, and then knows it without reading the store.
  for (const s of [b, a, a]) {
    const res = await fetch(publicURL(s.url));
    assert.equal(res.status, 200);
    assert.equal(await res.text(), "first version");
  }
  const other = studio.client(b.url); // the same session (a sign-in would count against the auth limit)
  assert.equal((await other.auth.setSession(session)).error, null);
  assert.equal((await other.storage.from(bucket).update("templates/deck.txt", "second version", { contentType: "text/plain" })).error, null);
  // The other instance forgets the old file when PostgreSQL's NOTIFY of the
  // replacement reaches it (decision 27): well under a millisecond on one
  // host, longer on a machine busy with other suites. Then never the old one.
  const seen = [];
  for (const end = Date.now() + 5000; Date.now() < end; ) {
    seen.push(await (await fetch(publicURL(a.url))).text());
    if (seen.at(-1) === "second version") break;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.equal(seen.at(-1), "second version", `served after the replacement: ${seen.length} times the old file`);
  for (let i = 0; i < 5; i++) assert.equal(await (await fetch(publicURL(a.url))).text(), "second version");
});

test("a function's rate limit trips at the configured count across both instances", async () => {
  const from = visitor();
  const statuses = [];
  for (let i = 0; i < functionLimit + 3; i++) {
    statuses.push((await post(lb.url, "subscribe-newsletter", { email: `limit${i}@example.com` }, from)).status);
  }
  assert.deepEqual(statuses, [...Array(functionLimit).fill(200), 429, 429, 429]);
});

test("an auth endpoint's rate limit trips at the configured count across both instances", async () => {
  const from = visitor();
  const statuses = [];
  for (let i = 0; i < authLimit + 2; i++) {
    const res = await fetch(`${lb.url}/auth/v1/otp`, {
      method: "POST",
      headers: { "Content-Type": "application/json", apikey: studio.anonKey, "X-Forwarded-For": from },
      // A new address each time: GoTrue also limits the codes sent to one address.
      body: JSON.stringify({ email: `not-staff-${i}@example.com`, create_user: false }),
    });
    statuses.push(res.status);
  }
  assert.ok(statuses.slice(0, authLimit).every((s) => s !== 429), `statuses ${statuses}`);
  assert.deepEqual(statuses.slice(authLimit), [429, 429]);
});

test("each message is mailed once, whichever instance stores and sends it", async () => {
  const markers = Array.from({ length: 20 }, (_, i) => `mailed-once-${i}-${Date.now()}`);
  for (const m of markers) assert.equal((await post(lb.url, "submit-contact", contact(m))).status, 200);
  const deadline = Date.now() + 15_000;
  while ([...mailsFor(markers).values()].some((n) => n === 0) && Date.now() < deadline) await sleep(100);
  await sleep(1000); // a second sender would have sent its copy by now
  for (const [m, n] of mailsFor(markers)) assert.equal(n, 1, `${m} was mailed ${n} times`);
});

test("a sign-out through one instance ends the session on the other", async () => {
  const c = studio.client(lb.url);
  const session = await studio.signIn(c, "signout@studio.test");
  assert.equal(await user(a.url, session.access_token), "200 ok");
  assert.equal(await user(b.url, session.access_token), "200 ok");
  const { error } = await c.auth.signOut();
  assert.equal(error, null);
  // GoTrue's answer to a token whose session has ended.
  assert.equal(await user(a.url, session.access_token), "403 session_not_found");
  assert.equal(await user(b.url, session.access_token), "403 session_not_found");
});

test("a staff removal ends the person's session on both instances", async () => {
  const c = studio.client(lb.url);
  const session = await studio.signIn(c, "removed@studio.test");
  assert.equal(await user(a.url, session.access_token), "200 ok");
  assert.equal(await user(b.url, session.access_token), "200 ok");
  studio.cli("staff", "remove", "removed@studio.test");
  assert.equal(await user(a.url, session.access_token), "403 session_not_found");
  assert.equal(await user(b.url, session.access_token), "403 session_not_found");
});

test("a message stored through one instance reaches a console on the other within 1 s", async () => {
  const c = studio.client(a.url);
  await studio.signIn(c, "console@studio.test");
  const arrived = new Map();
  const channel = c.channel("cluster-inbox").on("postgres_changes", { event: "INSERT", schema: "public", table: "contact_messages" },
    (payload) => arrived.set(payload.new.message, Date.now()));
  await new Promise((resolve, reject) => channel.subscribe((status, err) => {
    if (status === "SUBSCRIBED") resolve();
    if (status === "CHANNEL_ERROR" || status === "TIMED_OUT") reject(err ?? new Error(status));
  }));
  // Sent straight to the other instance, then twice through the balancer
  // (round robin: one of them reaches the other instance too).
  const sends = [[b.url, `live-across-${Date.now()}`], [lb.url, `live-lb1-${Date.now()}`], [lb.url, `live-lb2-${Date.now()}`]];
  for (const [base, marker] of sends) {
    const sent = Date.now();
    assert.equal((await post(base, "submit-contact", contact(marker))).status, 200);
    while (!arrived.has(marker) && Date.now() - sent < 3000) await sleep(10);
    assert.ok(arrived.has(marker), `${marker} did not arrive`);
    assert.ok(arrived.get(marker) - sent <= 1000, `${marker} took ${arrived.get(marker) - sent} ms`);
  }
  await c.removeChannel(channel);
});

test("no message is lost or stored twice when an instance is SIGKILLed under load", async () => {
  const acked = new Map(); // marker → id answered
  const failed = [];
  let stop = false;
  let seq = 0;
  const worker = async (w) => {
    while (!stop) {
      const marker = `kill-${w}-${seq++}-end`; // -end: no marker is the beginning of another
      try {
        const res = await post(lb.url, "submit-contact", contact(marker));
        if (res.status === 200) acked.set(marker, (await res.json()).id);
        else failed.push(`${marker}: ${res.status} ${await res.text()}`);
      } catch (err) {
        failed.push(`${marker}: ${err.message}`);
      }
    }
  };
  const workers = Array.from({ length: 4 }, (_, w) => worker(w));
  // Under load: at least 20 messages through before the kill (a busy machine takes longer to get there).
  for (const deadline = Date.now() + 30_000; acked.size <= 20 && Date.now() < deadline; ) await sleep(50);
  const beforeKill = acked.size;
  a.proc.kill("SIGKILL");
  await sleep(1500);
  stop = true;
  await Promise.all(workers);

  assert.ok(beforeKill > 20, `only ${beforeKill} messages before the kill: the load did not run`);
  assert.ok(acked.size > beforeKill, "no message was accepted after the kill");
  assert.deepEqual(failed, [], "every request is answered 200: the balancer retries on the other instance");
  const stored = JSON.parse(studio.cli("messages", "list", "--format", "json"));
  const count = new Map();
  const idOf = new Map();
  for (const m of stored) {
    if (!m.message.startsWith("kill-")) continue;
    count.set(m.message, (count.get(m.message) ?? 0) + 1);
    idOf.set(m.message, m.id);
  }
  for (const [marker, n] of count) assert.equal(n, 1, `${marker} stored ${n} times`);
  for (const [marker, id] of acked) assert.equal(idOf.get(marker), id, `${marker} answered ${id}, stored ${idOf.get(marker)}`);
  assert.equal(count.size, acked.size, "a message that was not answered 200 was stored");

  // The surviving instance sends the mails; one that the killed instance
  // had claimed waits for its 2-minute lease, but none is sent twice.
  await sleep(2000);
  for (const [marker, n] of mailsFor([...acked.keys()])) assert.ok(n <= 1, `${marker} was mailed ${n} times`);
});
