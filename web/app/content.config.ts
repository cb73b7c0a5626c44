// The site's content collections. The copy of the pages is typed modules in app/content; the
// resources are Markdown files whose frontmatter the schema checks when the site is built.
import { defineCollection } from "astro:content";
import { glob } from "astro/loaders";
import { resourceSchema } from "./content/resource-schema";

export const collections = {
  /** One entry per resource: app/content/resources/<slug>.md, its id the slug. */
  resources: defineCollection({
    loader: glob({ pattern: "*.md", base: "./app/content/resources" }),
    schema: resourceSchema,
  }),
};
