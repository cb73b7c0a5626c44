import { describe, expect, it } from "vitest";
import { ventureBadge, ventureLink, venturesSection } from "./ventures";

describe("ventures", () => {
  it("link 'View Details' to /products/{name in lower case}", () => {
    expect(venturesSection.ventures.map((v) => v.link)).toEqual([
      "/products/aurion",
      "/products/datasync",
      "/products/cryptotrack",
      "/products/healthmonitor",
      "/products/learnhub",
      "/products/legalflow",
    ]);
    expect(ventureLink("LegalFlow")).toBe("/products/legalflow");
  });

  it("explain their status in a tooltip", () => {
    expect(ventureBadge("Acquired").tooltip).toBe("Successfully exited");
    expect(ventureBadge("Active").tooltip).toBe("Currently active");
  });

  it("were founded no earlier than the studio (2020)", () => {
    for (const v of venturesSection.ventures) expect(v.yearFounded).toBeGreaterThanOrEqual(2020);
  });
});
