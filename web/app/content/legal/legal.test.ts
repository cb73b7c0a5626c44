import { describe, expect, it } from "vitest";
import { terms, GOVERNING_LAW_PLACEHOLDER } from "./terms";
import { privacy } from "./privacy";
import { cookies } from "./cookies";
import { affiliateDisclosure } from "./affiliate-disclosure";

const docs = { terms, privacy, cookies, affiliateDisclosure };

describe("legal documents", () => {
  it.each(Object.entries(docs))("%s: last updated May 16, 2025; unique section anchors", (_, doc) => {
    expect(doc.lastUpdated).toBe("May 16, 2025");
    expect(doc.lastUpdatedIso).toBe("2025-05-16");
    const ids = doc.sections.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-z0-9-]*$/);
  });

  it("have the required number of sections", () => {
    expect(terms.sections).toHaveLength(10);
    expect(privacy.sections).toHaveLength(9);
    expect(cookies.sections).toHaveLength(7);
  });

  it("leave the governing law as a marked placeholder", () => {
    const law = terms.sections.find((s) => s.id === "governing-law")!;
    expect(JSON.stringify(law.blocks)).toContain(GOVERNING_LAW_PLACEHOLDER);
    expect(GOVERNING_LAW_PLACEHOLDER).toMatch(/^\[.+\]$/);
  });
});
