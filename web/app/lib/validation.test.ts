import { describe, expect, it } from "vitest";
import table from "../../../internal/form/testdata/cases.json" with { type: "json" };
import { contactRules, signupEmailRule, validate, type Rule } from "./validation";

/**
 * The validation table shared with the Go tests (internal/form/form_test.go):
 * both validators must give every case the same answer.
 */

type TableString = string | null | { repeat: string; count: number } | { concat: TableString[] };

function text(v: TableString): string | null {
  if (v === null || typeof v === "string") return v;
  if ("repeat" in v) return v.repeat.repeat(v.count);
  return v.concat.map((p) => text(p) ?? "").join("");
}

const forms: Record<string, readonly Rule[]> = { contact: contactRules, signupEmail: [signupEmailRule] };

type Case = {
  name: string;
  form: string;
  input: Record<string, TableString>;
  errors: Record<string, string>;
  normalized?: Record<string, TableString>;
};

const cases = table.cases as Case[];

describe("shared validation table", () => {
  it("has the cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
  });

  it.each(cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const input = Object.fromEntries(Object.entries(c.input).map(([k, v]) => [k, text(v)]));
    const rules = forms[c.form];
    expect(rules, `form ${c.form}`).toBeDefined();
    const got = validate(input, rules!);
    expect(got.errors).toEqual(c.errors);
    for (const [k, v] of Object.entries(c.normalized ?? {})) {
      expect(got.values[k], `normalized ${k}`).toBe(text(v));
    }
  });
});
