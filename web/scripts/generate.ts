/**
 * Writes the data the Go server derives from the site's content:
 * internal/signup/waitlist-products.json, the ids of the coming-soon products
 * of app/content/products.ts. Run with `npm run generate`;
 * app/content/waitlist-products.test.ts fails when the file is out of date.
 */
import { writeFileSync } from "node:fs";
import { products } from "../app/content/products";

const out = new URL("../../internal/signup/waitlist-products.json", import.meta.url);
const doc = {
  $comment:
    "Generated from web/app/content/products.ts (the products whose status is coming-soon) by `npm --prefix web run generate`; web/app/content/waitlist-products.test.ts fails when it is out of date. Do not edit.",
  productIds: products.filter((p) => p.status === "coming-soon").map((p) => p.id),
};
writeFileSync(out, JSON.stringify(doc, null, 2) + "\n");
console.log(`wrote ${out.pathname}: ${doc.productIds.join(", ")}`);
