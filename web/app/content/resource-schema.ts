/**
 * The frontmatter of a resource's Markdown file (app/content/resources/<slug>.md):
 * the schema of the "resources" content collection (app/content.config.ts),
 * so a missing field or a bad date fails the build, naming the file and the field.
 */
import { z } from "astro/zod";

/** isCalendarDate says whether YYYY-MM-DD is a real day (not 2025-02-30). */
export function isCalendarDate(iso: string): boolean {
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === iso;
}

const text = z.string().trim().min(1);

const common = {
  title: text,
  description: text,
  /**
   * The sort key and the feed's pubDate: a quoted "YYYY-MM-DD". A bare YAML date is refused by
   * its type, since YAML reads a bare 2025-02-30 as March 2.
   */
  date: z.string().refine(isCalendarDate, { message: 'must be a real day as a quoted ISO date: date: "YYYY-MM-DD"' }),
  author: text,
  /** The alternative text of the 640 × 360 cover, public/images/resources/<slug>.svg. */
  cover: text,
};

export const resourceSchema = z.discriminatedUnion("category", [
  z.object({ ...common, category: z.enum(["blog", "guide"]), readTime: text }).strict(),
  z.object({ ...common, category: z.literal("podcast"), listenTime: text }).strict(),
  z
    .object({
      ...common,
      category: z.literal("template"),
      /** What the card shows: "CSV, 3 KB" (a test checks it against the file). */
      downloadSize: text,
      /** A file in public/downloads/, and what it is for the download button: "CSV spreadsheet". */
      download: z.object({ fileName: text, kind: text }).strict(),
    })
    .strict(),
]);

export type ResourceFrontmatter = z.infer<typeof resourceSchema>;
