/**
 * The validation rules and messages of the site's forms
 * (docs/requirements.md#contact-form and #sign-up-forms). They live in one file, internal/form/rules.json, which the Go
 * server embeds too; internal/form/testdata/cases.json is one table of cases
 * that validation.test.ts and the Go tests both run.
 */
import rules from "../../../internal/form/rules.json" with { type: "json" };

export type Rule = {
  readonly field: string;
  readonly required: boolean;
  /** In Unicode code points, after trimming. */
  readonly maxLength: number;
  readonly email: boolean;
  readonly message: string;
};

export type Values = Record<string, string | null | undefined>;
export type FieldErrors = Record<string, string>;

export const contactRules: readonly Rule[] = rules.contact;
export const signupEmailRule: Rule = rules.signup.email;
/** The contact form's hidden field; people leave it empty, bots fill it. */
export const honeypotField: string = rules.honeypot;
export const functionMessages = rules.errors;

const emailPattern = new RegExp(rules.emailPattern);

/**
 * normalize trims leading and trailing white space and drops NUL characters,
 * as the server does; an empty result is null.
 */
export function normalize(v: string | null | undefined): string | null {
  if (v == null) return null;
  const s = v.replace(/\u0000/g, "").trim();
  return s === "" ? null : s;
}

/** check reports whether a normalized value satisfies the rule. */
export function check(rule: Rule, v: string | null): boolean {
  if (v == null) return !rule.required;
  if ([...v].length > rule.maxLength) return false;
  return !rule.email || emailPattern.test(v);
}

/**
 * validate normalizes the values and checks them against the rules. It
 * returns the normalized values and the message of every failing field, in
 * rule order (an empty object when all pass).
 */
export function validate(values: Values, ruleList: readonly Rule[]): { values: Record<string, string | null>; errors: FieldErrors } {
  const out: Record<string, string | null> = {};
  const errors: FieldErrors = {};
  for (const [k, v] of Object.entries(values)) out[k] = v ?? null;
  for (const rule of ruleList) {
    const v = normalize(values[rule.field]);
    out[rule.field] = v;
    if (!check(rule, v)) errors[rule.field] = rule.message;
  }
  return { values: out, errors };
}
