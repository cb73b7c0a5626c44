import { describe, expect, it } from "vitest";
import generated from "../../../internal/signup/waitlist-products.json" with { type: "json" };
import { products } from "./products";

describe("waitlist products", () => {
  it("the server's list (internal/signup/waitlist-products.json) is the coming-soon products; run `npm run generate` after changing products.ts", () => {
    const comingSoon = products.filter((p) => p.status === "coming-soon").map((p) => p.id);
    expect(generated.productIds).toEqual(comingSoon);
  });
});
