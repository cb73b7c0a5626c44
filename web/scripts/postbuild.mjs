// Post-processes Astro's build for the Go server: puts the site's not-found
// page where the server looks for it (404/index.html), checks that no page
// carries an inline style of its own (Astro's one island rule is in app.css
// instead), joins the inline scripts Astro writes into a page's body (its
// island loader and hydration directives) to the head's first (the CSP admits
// each inline script by a hash in every page's header: one element, one
// hash), inlines each public page's critical CSS in place of its
// render-blocking stylesheet (critical-css.mjs; the server's CSP admits the
// <style> by its hash), then writes brotli and gzip variants of every
// compressible file (the server picks one by Accept-Encoding), keeping a
// variant only when it is smaller.
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import { join, extname } from "node:path";
import { brotliCompressSync, gzipSync, constants } from "node:zlib";
import { criticalCssPages } from "./critical-css.mjs";

const root = new URL("../build/client/", import.meta.url).pathname;
const compressible = new Set([".html", ".js", ".mjs", ".css", ".svg", ".json", ".xml", ".txt", ".csv", ".md", ".webmanifest"]);
const MIN_BYTES = 512;
/** Astro's inline rule for its island wrappers; app.css has the same rule. */
export const ISLAND_STYLE = "<style>astro-island,astro-slot,astro-static-slot{display:contents}</style>";

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

/** withoutInlineStyle drops Astro's island style from a page and fails on any other inline style. */
export function withoutInlineStyle(html, name) {
  const out = html.replaceAll(ISLAND_STYLE, "");
  if (/<style[\s>]|\sstyle="/i.test(out)) throw new Error(`${name}: an inline style, which the Content-Security-Policy refuses`);
  return out;
}

/**
 * withInlineScriptsJoined moves the code of every inline classic script
 * (<script> without attributes) after the page's first into the first, in
 * document order. They define functions and register listeners, so running
 * them in the head, before the islands they serve are parsed, is what Astro's
 * loader expects of a page whose islands come after it.
 */
export function withInlineScriptsJoined(html) {
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)];
  if (scripts.length < 2) return html;
  const [first, ...rest] = scripts;
  const joined = `<script>${[first[1], ...rest.map((m) => m[1])].join(";\n")}</script>`;
  let i = 0;
  return html.replace(/<script>[\s\S]*?<\/script>/g, () => (i++ === 0 ? joined : ""));
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  await mkdir(join(root, "404"), { recursive: true });
  await rename(join(root, "404.html"), join(root, "404", "index.html"));

  const withCriticalCss = criticalCssPages(root);
  let count = 0;
  for await (const path of files(root)) {
    if (!compressible.has(extname(path))) continue;
    let body = await readFile(path);
    if (extname(path) === ".html") {
      body = Buffer.from(await withCriticalCss(withInlineScriptsJoined(withoutInlineStyle(body.toString(), path))));
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
}
