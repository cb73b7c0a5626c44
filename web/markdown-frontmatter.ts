// A Vite plugin for the build (astro.config.mjs) and the unit tests (vitest.config.ts):
// `import data from "./x.md?frontmatter"` is the YAML frontmatter of x.md, parsed as Astro's
// content collections parse it, without the Markdown body. It lets modules that reach the
// browser (the site search's index) read the resources' frontmatter: astro:content is
// for the server only, and the bodies must not be bundled.
import { readFile } from "node:fs/promises";
import { parseFrontmatter } from "@astrojs/markdown-remark";
import type { Plugin } from "vite";

const query = "?frontmatter";
/** The module's id ends in .js, not .md, so that Astro's Markdown plugin leaves it alone. */
const suffix = ".frontmatter.js";

export function markdownFrontmatter(): Plugin {
  return {
    name: "markdown-frontmatter",
    enforce: "pre",
    async resolveId(source, importer) {
      if (!source.endsWith(`.md${query}`)) return null;
      const file = await this.resolve(source.slice(0, -query.length), importer, { skipSelf: true });
      return file && `\0${file.id}${suffix}`;
    },
    async load(id) {
      if (!id.startsWith("\0") || !id.endsWith(`.md${suffix}`)) return null;
      const file = id.slice(1, -suffix.length);
      this.addWatchFile(file);
      const { frontmatter } = parseFrontmatter(await readFile(file, "utf8"));
      return `export default ${JSON.stringify(frontmatter)};`;
    },
  };
}
