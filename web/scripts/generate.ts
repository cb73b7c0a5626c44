/**
 * Writes the data derived from the site's content, checked by tests that fail
 * when it is out of date. Run with `npm run generate`:
 * - internal/signup/waitlist-products.json, for the Go server: the ids of the
 *   coming-soon products of app/content/products.ts
 *   (app/content/waitlist-products.test.ts);
 * - app/content/resources.generated.ts: the frontmatter of the resources'
 *   Markdown files (scripts/resource-frontmatter.ts; app/content/resources.test.ts).
 */
import { writeFileSync } from "node:fs";
import { products } from "../app/content/products";
import { generatedModule, generatedSource, readResourceFrontmatter } from "./resource-frontmatter";

const out = new URL("../../internal/signup/waitlist-products.json", import.meta.url);
const doc = {
  $comment:
    "Generated from web/app/content/products.ts (the products whose status is coming-soon) by `npm --prefix web run generate`; web/app/content/waitlist-products.test.ts fails when it is out of date. Do not edit.",
  productIds: products.filter((p) => p.status === "coming-soon").map((p) => p.id),
};
writeFileSync(out, JSON.stringify(doc, null, 2) + "\n");
console.log(`wrote ${out.pathname}: ${doc.productIds.join(", ")}`);

const frontmatter = readResourceFrontmatter();
writeFileSync(generatedModule, generatedSource(frontmatter));
console.log(`wrote ${generatedModule}: ${Object.keys(frontmatter).length} resources`);
