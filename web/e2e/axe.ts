import axe from "axe-core";
import { expect, type Page } from "@playwright/test";

/** What to check: the part of the page (a selector, else all of it) and the rules (else axe's own set). */
export type AxeScope = { include?: string; runOnly?: axe.RunOptions["runOnly"] };

/**
 * axeViolations runs axe on the page and names what it found, as "rule (impact): targets". axe is
 * injected once per document, so looks of the same page (widths, themes) are checked without it.
 */
export async function axeViolations(page: Page, { include, runOnly }: AxeScope = {}): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axe.source);
  return page.evaluate(
    async ({ include, runOnly }) => {
      const options: axe.RunOptions = { resultTypes: ["violations"], ...(runOnly ? { runOnly } : {}) };
      const { violations } = await (window as unknown as { axe: typeof axe }).axe.run(include ?? document, options);
      return violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).slice(0, 5).join(" | ")}`);
    },
    { include, runOnly },
  );
}

/** The rules every page and console screen is held to: WCAG 2.2 A and AA, and axe's best practices. */
export const wcagTags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/** expectNoAxeViolations fails the test with what axe finds on the page against wcagTags, saying where. */
export async function expectNoAxeViolations(page: Page, where: string): Promise<void> {
  expect(await axeViolations(page, { runOnly: { type: "tag", values: wcagTags } }), where).toEqual([]);
}
