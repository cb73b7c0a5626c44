/**
 * Markdown to HTML, for the bodies of the resource pages while the site is
 * built (pages/resources/[slug].astro). No island may import it: the Markdown
 * library would ship to the browser (an e2e test checks the scripts).
 */
import { Marked, type Tokens } from "marked";

const marked = new Marked({
  gfm: true,
  renderer: {
    // Wide tables scroll sideways on a phone instead of widening the page.
    table(this: { parser: { parseInline: (tokens: Tokens.Generic[]) => string } }, token: Tokens.Table) {
      const cell = (c: Tokens.TableCell, tag: "th" | "td") => `<${tag}>${this.parser.parseInline(c.tokens)}</${tag}>`;
      const head = `<tr>${token.header.map((c) => cell(c, "th")).join("")}</tr>`;
      const rows = token.rows.map((row) => `<tr>${row.map((c) => cell(c, "td")).join("")}</tr>`).join("");
      return `<div class="overflow-x-auto"><table><thead>${head}</thead><tbody>${rows}</tbody></table></div>\n`;
    },
  },
});

/** renderMarkdown returns the HTML of a Markdown text (GitHub-flavoured; tables scroll sideways). */
export function renderMarkdown(source: string): string {
  return marked.parse(source, { async: false });
}
