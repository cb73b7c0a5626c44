/**
 * The resources' frontmatter, read from their Markdown files for the module
 * the browser and the tests import (app/content/resources.generated.ts):
 * astro:content is for the server only, and the e2e tests load the content
 * modules without Astro. `npm run generate` writes it; app/content/resources.test.ts
 * and the build (pages/resources/[slug].astro) fail when it is out of date.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseFrontmatter } from "@astrojs/markdown-remark";
import { resourceSchema, type ResourceFrontmatter } from "../app/content/resource-schema";

/** npm scripts and Vitest run in web/. */
export const resourcesDir = join(process.cwd(), "app/content/resources");
export const generatedModule = join(process.cwd(), "app/content/resources.generated.ts");

/** readResourceFrontmatter parses every resource file as the content collection does, by slug; a file the schema refuses throws. */
export function readResourceFrontmatter(): Record<string, ResourceFrontmatter> {
  const bySlug: Record<string, ResourceFrontmatter> = {};
  for (const name of readdirSync(resourcesDir).filter((n) => n.endsWith(".md")).sort()) {
    const { frontmatter } = parseFrontmatter(readFileSync(join(resourcesDir, name), "utf8"));
    const parsed = resourceSchema.safeParse(frontmatter);
    if (!parsed.success) {
      throw new Error(`app/content/resources/${name}: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
    }
    bySlug[name.slice(0, -".md".length)] = parsed.data;
  }
  return bySlug;
}

/** generatedSource is the text of resources.generated.ts for the given frontmatter. */
export function generatedSource(bySlug: Record<string, ResourceFrontmatter>): string {
  return [
    "// Generated from the frontmatter of app/content/resources/*.md by `npm --prefix web run generate`;",
    "// app/content/resources.test.ts and the build fail when it is out of date. Do not edit.",
    'import type { ResourceFrontmatter } from "./resource-schema";',
    "",
    `export const frontmatterBySlug: Record<string, ResourceFrontmatter> = ${JSON.stringify(bySlug, null, 2)};`,
    "",
  ].join("\n");
}
