import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/** The Page type @axe-core/playwright was built against (its playwright-core may be another version). */
type AxePage = ConstructorParameters<typeof AxeBuilder>[0]["page"];

/** axeViolations runs axe on the page (or only inside `include`) and lists the violations as "rule: targets". */
export async function axeViolations(page: Page, include?: string): Promise<string[]> {
  let builder = new AxeBuilder({ page: page as unknown as AxePage });
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}
