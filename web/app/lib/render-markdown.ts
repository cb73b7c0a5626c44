/**
 * Markdown bodies of the resource detail pages, rendered to HTML at build
 * time. Only the resource detail page (routes/resources.$slug.tsx, rendered
 * at build time and never an island) uses it; the ".server" name says that no
 * island may import it, or the Markdown library would ship to the browser.
 */
import { Marked, type Tokens } from "marked";

/** The Markdown files under app/content/resources/, by path. */
const bodies = import.meta.glob<string>("../content/resources/*.md", { query: "?raw", import: "default", eager: true });

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

/** resourceBodySlugs lists the slugs that have a Markdown body. */
export function resourceBodySlugs(): string[] {
  return Object.keys(bodies).map((path) => path.replace(/^.*\/(.+)\.md$/, "$1"));
}

/** renderResourceBody returns the HTML of a resource's Markdown body; it throws when there is none. */
export function renderResourceBody(slug: string): string {
  const source = bodies[`../content/resources/${slug}.md`];
  if (source === undefined) throw new Error(`resource ${slug}: no Markdown body in app/content/resources/`);
  return marked.parse(source, { async: false });
}
