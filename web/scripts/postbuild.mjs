// Post-processes the client build for the Go server: defers each page's
// JavaScript to after its first paint (defer-hydration.mjs), then writes
// brotli and gzip variants of every compressible file (the server picks one
// by Accept-Encoding), keeping a variant only when it is smaller.
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join, extname } from "node:path";
import { brotliCompressSync, gzipSync, constants } from "node:zlib";
import { deferHydration } from "./defer-hydration.mjs";

const root = new URL("../build/client/", import.meta.url).pathname;
const compressible = new Set([".html", ".js", ".mjs", ".css", ".svg", ".json", ".xml", ".txt", ".data", ".csv", ".md", ".webmanifest"]);
const MIN_BYTES = 512;

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

let count = 0;
for await (const path of files(root)) {
  if (!compressible.has(extname(path))) continue;
  let body = await readFile(path);
  if (extname(path) === ".html") {
    body = Buffer.from(deferHydration(body.toString()));
    await writeFile(path, body);
  }
  if (body.length < MIN_BYTES) continue;
  const br = brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  });
  const gz = gzipSync(body, { level: 9 });
  if (br.length < body.length) await writeFile(`${path}.br`, br);
  if (gz.length < body.length) await writeFile(`${path}.gz`, gz);
  count++;
}
console.log(`postbuild: compressed ${count} files in ${root}`);
