// The official @supabase/supabase-js client's storage against the real
// studio binary's /storage/v1 (the directory backend in --data): buckets,
// uploads, downloads (Range, If-None-Match), info, exists, list, move, copy,
// remove, signed URLs for downloads and uploads, and every refusal: the anon
// key writing, a private object read without a token, a file over the
// bucket's size limit or of a type it does not allow, a duplicate without
// upsert, an expired signed URL, a path with "..".
//
// Run: node --test web/auth-tests/ (after make build); on PostgreSQL with
// STUDIO_TEST_DATABASE_URL set (scripts/with-postgres), and on an S3 server
// with STUDIO_STORAGE_URL set (scripts/with-s3; make test-auth does both).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createClient } from "@supabase/supabase-js";
import { Studio } from "./studio.mjs";

let studio, base, staff, anon;

before(async () => {
  studio = new Studio();
  base = await studio.serve();
  staff = studio.client(base);
  await studio.signIn(staff, "ada@studio.test");
  anon = createClient(base, studio.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  for (const [id, options] of [
    ["public-files", { public: true }],
    ["private-files", { public: false }],
    ["images", { public: false, fileSizeLimit: 1024, allowedMimeTypes: ["image/png", "image/svg+xml", "text/plain"] }],
  ]) {
    const { data, error } = await staff.storage.createBucket(id, options);
    assert.equal(error, null);
    assert.deepEqual(data, { name: id });
  }
});

after(() => studio?.close());

/** ok unwraps a storage answer that must have succeeded. */
function ok({ data, error }) {
  assert.equal(error, null, error && `${error.status} ${error.statusCode} ${error.message}`);
  return data;
}

/** refused asserts that a storage answer failed with Supabase's statusCode. */
function refused({ data, error }, statusCode, message) {
  assert.ok(error, `succeeded: ${JSON.stringify(data)}`);
  assert.equal(error.statusCode, statusCode, error.message);
  if (message) assert.match(error.message, message);
}

/** text uploads body as name in bucket and returns the answer's data. */
async function put(bucket, name, body, options = {}) {
  return ok(await staff.storage.from(bucket).upload(name, body, { contentType: "text/plain", ...options }));
}

test("the bytes live in the backend --storage-url names", async () => {
  await put("private-files", "where/am-i.txt", "somewhere");
  const dir = join(studio.dataDir, "storage");
  const files = existsSync(dir) ? readdirSync(dir, { recursive: true }) : [];
  if (process.env.STUDIO_STORAGE_URL) assert.deepEqual(files, [], "an S3 backend left files in --data");
  else assert.ok(files.length > 0, "the directory backend wrote nothing in --data/storage");
});

test("the public bucket downloads holds the site's templates from the first start; staff replace one and it is served at once", async () => {
  const templates = ok(await staff.storage.from("downloads").list());
  assert.deepEqual(templates.map((t) => t.name),
    ["due-diligence-checklist.md", "product-roadmap-framework.csv", "saas-financial-model.csv", "saas-pitch-deck-outline.md"]);
  const url = `${base}/storage/v1/object/public/downloads/saas-financial-model.csv`;
  let res = await fetch(`${url}?download`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "text/csv; charset=utf-8");
  assert.match(res.headers.get("content-disposition"), /^attachment; filename="?saas-financial-model\.csv"?$/);
  assert.match(await res.text(), /^SaaS Financial Model Template/);
  ok(await staff.storage.from("downloads").update("saas-financial-model.csv", "Month,Customers\n1,10\n", { contentType: "text/csv; charset=utf-8" }));
  res = await fetch(url);
  assert.equal(await res.text(), "Month,Customers\n1,10\n");
  // A restart leaves the replacement alone.
  const again = await studio.serve();
  assert.equal(await (await fetch(`${again}/storage/v1/object/public/downloads/saas-financial-model.csv`)).text(), "Month,Customers\n1,10\n");
  // Whole public downloads are counted (written every 5 s) and listed in each file's metadata.
  let counted = 0;
  for (const deadline = Date.now() + 8000; counted < 2 && Date.now() < deadline; await sleep(250)) {
    const files = ok(await staff.storage.from("downloads").list());
    counted = files.find((f) => f.name === "saas-financial-model.csv").metadata.downloads;
  }
  assert.equal(counted, 2, "the two whole downloads of saas-financial-model.csv are counted");
  // The old address of a template is sent there.
  res = await fetch(`${base}/downloads/saas-financial-model.csv`, { redirect: "manual" });
  assert.equal(res.status, 301);
  assert.equal(res.headers.get("location"), "/storage/v1/object/public/downloads/saas-financial-model.csv?download");
  // A name that would make another host stays a path of the site.
  res = await fetch(`${base}/downloads/%2F%2Fevil.example`, { redirect: "manual" });
  assert.equal(res.headers.get("location"), "/storage/v1/object/public/downloads/%2F%2Fevil.example?download");
});

test("buckets: list, get, update, empty, delete (refused while not empty)", async () => {
  const list = ok(await staff.storage.listBuckets());
  assert.deepEqual(list.map((b) => b.id), ["downloads", "images", "private-files", "public-files"]); // downloads: the site's templates
  const images = ok(await staff.storage.getBucket("images"));
  assert.equal(images.file_size_limit, 1024);
  assert.deepEqual(images.allowed_mime_types, ["image/png", "image/svg+xml", "text/plain"]);
  assert.equal(images.public, false);

  ok(await staff.storage.createBucket("scratch", { public: false, fileSizeLimit: "1MB" }));
  refused(await staff.storage.createBucket("scratch"), "409", /already exists/);
  refused(await staff.storage.createBucket("no/slash"), "400", /Bucket name invalid/);
  assert.deepEqual(ok(await staff.storage.updateBucket("scratch", { public: true, fileSizeLimit: 10 })), { message: "Successfully updated" });
  const scratch = ok(await staff.storage.getBucket("scratch"));
  assert.equal(scratch.public, true);
  assert.equal(scratch.file_size_limit, 10);
  await put("scratch", "a.txt", "0123456789");
  refused(await staff.storage.deleteBucket("scratch"), "409", /not empty/);
  ok(await staff.storage.emptyBucket("scratch"));
  assert.deepEqual(ok(await staff.storage.from("scratch").list()), []);
  assert.deepEqual(ok(await staff.storage.deleteBucket("scratch")), { message: "Successfully deleted" });
  refused(await staff.storage.getBucket("scratch"), "404", /Bucket not found/);
});

test("upload, download, info, exists; names as given", async () => {
  const name = "docs/Pitch deck – v2 (final).txt";
  const up = await put("private-files", name, "hello, files", { cacheControl: "120" });
  assert.equal(up.path, name);
  assert.equal(up.fullPath, `private-files/${name}`);
  assert.ok(up.id);
  const blob = ok(await staff.storage.from("private-files").download(name));
  assert.equal(await blob.text(), "hello, files");
  const info = ok(await staff.storage.from("private-files").info(name));
  assert.equal(info.name, name);
  assert.equal(info.size, 12);
  assert.equal(info.contentType, "text/plain");
  assert.equal(info.cacheControl, "max-age=120");
  assert.equal(info.bucketId, "private-files");
  assert.equal(ok(await staff.storage.from("private-files").exists(name)), true);
  const missing = await staff.storage.from("private-files").exists("docs/nothing.txt");
  assert.equal(missing.data, false);

  // A Blob goes as a multipart form, with its own type.
  const png = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: "image/png" });
  ok(await staff.storage.from("images").upload("dot.png", png));
  assert.equal(ok(await staff.storage.from("images").info("dot.png")).contentType, "image/png");
});

test("update (PUT) replaces; a duplicate without upsert is refused; x-upsert replaces", async () => {
  await put("private-files", "replace.txt", "one");
  refused(await staff.storage.from("private-files").upload("replace.txt", "two", { contentType: "text/plain" }), "409", /already exists/);
  ok(await staff.storage.from("private-files").update("replace.txt", "two", { contentType: "text/plain" }));
  assert.equal(await ok(await staff.storage.from("private-files").download("replace.txt")).text(), "two");
  await put("private-files", "replace.txt", "three", { upsert: true });
  assert.equal(await ok(await staff.storage.from("private-files").download("replace.txt")).text(), "three");
});

test("public buckets are read by anyone; private objects only by staff", async () => {
  await put("public-files", "hello.txt", "public hello");
  await put("private-files", "secret.txt", "private");
  const { data } = anon.storage.from("public-files").getPublicUrl("hello.txt");
  const res = await fetch(data.publicUrl);
  assert.equal(res.status, 200);
  assert.equal(await res.text(), "public hello");
  assert.equal(await ok(await anon.storage.from("public-files").download("hello.txt")).text(), "public hello");

  refused(await anon.storage.from("private-files").download("secret.txt"), "404");
  refused(await anon.storage.from("private-files").info("secret.txt"), "404");
  const privateUrl = anon.storage.from("private-files").getPublicUrl("secret.txt").data.publicUrl;
  const res2 = await fetch(privateUrl);
  assert.equal(res2.status, 400);
  assert.equal((await res2.json()).statusCode, "404");
  const res3 = await fetch(`${base}/storage/v1/object/private-files/secret.txt`);
  assert.equal(res3.status, 400);
  assert.deepEqual(ok(await anon.storage.listBuckets()), []);
  assert.deepEqual(ok(await anon.storage.from("private-files").list()), []);
});

test("the anon key writes nothing", async () => {
  refused(await anon.storage.from("public-files").upload("anon.txt", "x", { contentType: "text/plain" }), "403", /row-level security/);
  refused(await anon.storage.from("public-files").update("hello.txt", "x"), "403");
  refused(await anon.storage.from("public-files").remove(["hello.txt"]), "403");
  refused(await anon.storage.from("public-files").move("hello.txt", "moved.txt"), "403");
  refused(await anon.storage.from("public-files").copy("hello.txt", "copied.txt"), "403");
  refused(await anon.storage.createBucket("anon-bucket", { public: true }), "403");
  refused(await anon.storage.deleteBucket("public-files"), "403");
  refused(await anon.storage.emptyBucket("public-files"), "403");
  refused(await anon.storage.from("public-files").createSignedUploadUrl("anon.txt"), "403");
  refused(await anon.storage.from("private-files").createSignedUrl("secret.txt", 60), "404");
  assert.equal(await ok(await anon.storage.from("public-files").download("hello.txt")).text(), "public hello");
});

test("the bucket's size limit and allowed types are enforced", async () => {
  refused(await staff.storage.from("images").upload("big.txt", "x".repeat(1025), { contentType: "text/plain" }), "413");
  refused(await staff.storage.from("images").upload("big.png", new Blob([new Uint8Array(4096)], { type: "image/png" })), "413");
  refused(await staff.storage.from("images").upload("page.html", "<p>hi</p>", { contentType: "text/html" }).then((r) => r), "415");
  refused(await staff.storage.from("images").upload("a.pdf", "%PDF", { contentType: "application/pdf" }), "415", /application\/pdf/);
  ok(await staff.storage.from("images").upload("exact.txt", "x".repeat(1024), { contentType: "text/plain" }));
  assert.equal((await staff.storage.from("images").exists("big.txt")).data, false);
  assert.equal((await staff.storage.from("images").exists("big.png")).data, false);
});

test("paths: no '..', no empty segment, no control character, at most 1,024 bytes", async () => {
  await put("private-files", "safe/name.txt", "safe");
  for (const bad of ["../escape.txt", "a/../../b.txt", "a//b.txt", "./a.txt", "tab\there.txt", "x".repeat(1025)]) {
    refused(await staff.storage.from("private-files").move("safe/name.txt", bad), "400", /Invalid key/);
    refused(await staff.storage.from("private-files").copy("safe/name.txt", bad), "400", /Invalid key/);
  }
  assert.equal((await staff.storage.from("private-files").exists("safe/name.txt")).data, true);
  const res = await fetch(`${base}/storage/v1/object/private-files/a%2F..%2F..%2Fb.txt`, {
    method: "POST", headers: { Authorization: `Bearer ${(await staff.auth.getSession()).data.session.access_token}`, apikey: studio.anonKey, "Content-Type": "text/plain" }, body: "x",
  });
  assert.notEqual(res.status, 200);
  ok(await staff.storage.from("private-files").upload("x".repeat(1024), "long", { contentType: "text/plain" }));
});

test("list: folders, prefix, search, sort, limit and offset", async () => {
  for (const name of ["list/b.txt", "list/A.txt", "list/sub/1.txt", "list/sub/2.txt", "list/c.txt"]) await put("private-files", name, name);
  const entries = ok(await staff.storage.from("private-files").list("list"));
  assert.deepEqual(entries.map((e) => e.name), ["A.txt", "b.txt", "c.txt", "sub"]);
  const folder = entries.find((e) => e.name === "sub");
  assert.equal(folder.id, null);
  assert.equal(folder.metadata, null);
  const file = entries.find((e) => e.name === "b.txt");
  assert.equal(file.metadata.size, "list/b.txt".length);
  assert.equal(file.metadata.mimetype, "text/plain");
  assert.ok(file.id && file.created_at && file.updated_at);
  assert.deepEqual((ok(await staff.storage.from("private-files").list("list/sub"))).map((e) => e.name), ["1.txt", "2.txt"]);
  const page = ok(await staff.storage.from("private-files").list("list", { limit: 2, offset: 1, sortBy: { column: "name", order: "desc" } }));
  assert.deepEqual(page.map((e) => e.name), ["c.txt", "b.txt"]);
  assert.deepEqual(ok(await staff.storage.from("private-files").list("list", { search: "a" })).map((e) => e.name), ["A.txt"]);
  const byTime = ok(await staff.storage.from("private-files").list("list", { sortBy: { column: "created_at", order: "asc" } }));
  assert.deepEqual(byTime.map((e) => e.name), ["sub", "b.txt", "A.txt", "c.txt"]);
});

test("move, copy, remove many", async () => {
  await put("private-files", "m/one.txt", "one");
  await put("private-files", "m/two.txt", "two");
  assert.deepEqual(ok(await staff.storage.from("private-files").move("m/one.txt", "m/moved.txt")), { message: "Successfully moved" });
  assert.equal((await staff.storage.from("private-files").exists("m/one.txt")).data, false);
  assert.equal(await ok(await staff.storage.from("private-files").download("m/moved.txt")).text(), "one");
  refused(await staff.storage.from("private-files").move("m/moved.txt", "m/two.txt"), "409");
  refused(await staff.storage.from("private-files").move("m/nothing.txt", "m/x.txt"), "404");
  const copied = ok(await staff.storage.from("private-files").copy("m/two.txt", "m/copy.txt", { destinationBucket: "public-files" }));
  assert.equal(copied.path, "public-files/m/copy.txt");
  assert.equal(await ok(await anon.storage.from("public-files").download("m/copy.txt")).text(), "two");
  ok(await staff.storage.from("private-files").move("m/two.txt", "m/two.txt", { destinationBucket: "public-files" }));
  const removed = ok(await staff.storage.from("private-files").remove(["m/moved.txt", "m/none.txt"]));
  assert.deepEqual(removed.map((o) => o.name), ["m/moved.txt"]);
  assert.equal((await staff.storage.from("private-files").exists("m/moved.txt")).data, false);
  // The copy keeps its bytes when the original goes.
  ok(await staff.storage.from("public-files").remove(["m/two.txt"]));
  assert.equal(await ok(await anon.storage.from("public-files").download("m/copy.txt")).text(), "two");
});

test("signed download URLs: one, many, download name; expired is refused", async () => {
  await put("private-files", "signed/report.txt", "signed bytes");
  const { signedUrl } = ok(await staff.storage.from("private-files").createSignedUrl("signed/report.txt", 60));
  const res = await fetch(signedUrl);
  assert.equal(res.status, 200);
  assert.equal(await res.text(), "signed bytes");
  assert.equal(res.headers.get("content-disposition"), null);

  const named = ok(await staff.storage.from("private-files").createSignedUrl("signed/report.txt", 60, { download: "Report 2025.txt" }));
  const res2 = await fetch(named.signedUrl);
  assert.match(res2.headers.get("content-disposition"), /^attachment; filename="Report 2025.txt"/);
  const plain = ok(await staff.storage.from("private-files").createSignedUrl("signed/report.txt", 60, { download: true }));
  assert.match((await fetch(plain.signedUrl)).headers.get("content-disposition"), /^attachment; filename="?report\.txt"?$/); // its own name
  // A hostile attachment name is encoded into the one header, never a header of its own.
  const hostile = await fetch(`${signedUrl}&download=${encodeURIComponent("a\r\nSet-Cookie: x=1")}`);
  assert.equal(hostile.status, 200);
  assert.equal(hostile.headers.get("set-cookie"), null);
  assert.equal(hostile.headers.get("content-disposition"), "attachment; filename*=utf-8''a%0D%0ASet-Cookie%3A%20x%3D1");

  const many = ok(await staff.storage.from("private-files").createSignedUrls(["signed/report.txt", "signed/none.txt"], 60));
  assert.equal(many.length, 2);
  assert.equal(many[0].error, null);
  assert.equal(await (await fetch(many[0].signedUrl)).text(), "signed bytes");
  assert.ok(many[1].error);
  assert.equal(many[1].signedUrl, null);

  // Another object's path with this token is refused.
  await put("private-files", "signed/other.txt", "other");
  const forged = signedUrl.replace("signed/report.txt", "signed/other.txt");
  assert.equal((await fetch(forged)).status, 400);

  const short = ok(await staff.storage.from("private-files").createSignedUrl("signed/report.txt", 1));
  await sleep(2100); // past its expiry, whole seconds in the token
  const expired = await fetch(short.signedUrl);
  assert.equal(expired.status, 400);
  assert.deepEqual(await expired.json(), { statusCode: "400", code: "InvalidJWT", error: "InvalidJWT", message: "jwt expired" });
});

test("signed upload URLs and uploadToSignedUrl", async () => {
  const { token, path, signedUrl } = ok(await staff.storage.from("private-files").createSignedUploadUrl("uploads/by-link.txt"));
  assert.equal(path, "uploads/by-link.txt");
  assert.match(signedUrl, /\/storage\/v1\/object\/upload\/sign\/private-files\/uploads\/by-link\.txt\?token=/);
  const up = ok(await anon.storage.from("private-files").uploadToSignedUrl("uploads/by-link.txt", token, "via link", { contentType: "text/plain" }));
  assert.equal(up.fullPath, "private-files/uploads/by-link.txt");
  assert.equal(await ok(await staff.storage.from("private-files").download("uploads/by-link.txt")).text(), "via link");
  // Without upsert in the token, a second upload is a duplicate.
  refused(await anon.storage.from("private-files").uploadToSignedUrl("uploads/by-link.txt", token, "again", { contentType: "text/plain" }), "409");
  // The token is for that path only, and is no download token.
  refused(await anon.storage.from("private-files").uploadToSignedUrl("uploads/other.txt", token, "x", { contentType: "text/plain" }), "400");
  const asDownload = await fetch(`${base}/storage/v1/object/sign/private-files/uploads/by-link.txt?token=${token}`);
  assert.equal(asDownload.status, 400);
});

test("no script from uploads: nosniff and CSP sandbox on every object", async () => {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>`;
  ok(await staff.storage.from("public-files").upload("evil.svg", svg, { contentType: "image/svg+xml" }));
  for (const url of [
    anon.storage.from("public-files").getPublicUrl("evil.svg").data.publicUrl,
    ok(await staff.storage.from("public-files").createSignedUrl("evil.svg", 60)).signedUrl,
  ]) {
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "image/svg+xml");
    assert.equal(res.headers.get("x-content-type-options"), "nosniff");
    assert.equal(res.headers.get("content-security-policy"), "sandbox");
  }
});

test("downloads: Range gives 206 (416 past the end), If-None-Match gives 304, Last-Modified and Cache-Control", async () => {
  await put("public-files", "range.txt", "0123456789", { cacheControl: "300" });
  const url = anon.storage.from("public-files").getPublicUrl("range.txt").data.publicUrl;
  const full = await fetch(url);
  assert.equal(full.status, 200);
  assert.equal(full.headers.get("cache-control"), "max-age=300");
  assert.ok(full.headers.get("last-modified"));
  const etag = full.headers.get("etag");
  assert.match(etag, /^"[0-9a-f]{32}"$/);
  await full.text();

  const part = await fetch(url, { headers: { Range: "bytes=2-5" } });
  assert.equal(part.status, 206);
  assert.equal(part.headers.get("content-range"), "bytes 2-5/10");
  assert.equal(await part.text(), "2345");
  const past = await fetch(url, { headers: { Range: "bytes=20-30" } });
  assert.equal(past.status, 416);
  await past.text();

  const cached = await fetch(url, { headers: { "If-None-Match": etag } });
  assert.equal(cached.status, 304);
  const changed = await fetch(url, { headers: { "If-None-Match": '"other"' } });
  assert.equal(changed.status, 200);
  await changed.text();
});
