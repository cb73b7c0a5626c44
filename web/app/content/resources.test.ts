import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseFrontmatter } from "@astrojs/markdown-remark";
import { describe, expect, it } from "vitest";
import { categoryFilterOptions, featuredGuide, findResource, resourceLength, resources, resourceTabs } from "./resources";
import { isCalendarDate, resourceSchema } from "./resource-schema";
import { prerenderPaths } from "./site-map";
import { generatedModule, generatedSource, readResourceFrontmatter, resourcesDir } from "../../scripts/resource-frontmatter";
import { renderMarkdown } from "~/lib/render-markdown";

/** Vitest runs in web/. */
const publicDir = join(process.cwd(), "public");

/** A resource's body as its page shows it: the file's Markdown after the frontmatter, as the content collection splits it. */
const renderBody = (slug: string) => renderMarkdown(parseFrontmatter(readFileSync(join(resourcesDir, `${slug}.md`), "utf8")).content);

/** The resource slugs of docs/requirements.md#routes, in their order. */
const specSlugs = [
  "saas-founders-playbook",
  "scaling-strategies",
  "building-for-exit-podcast",
  "financial-model-template",
  "ai-in-saas",
  "product-led-growth",
  "due-diligence-checklist",
  "onboarding-best-practices",
  "customer-centric-culture",
  "future-of-b2b-saas",
  "idea-to-ipo",
  "pitch-deck-template",
  "roadmap-framework",
];

describe("resources", () => {
  it("are the thirteen of the requirements, each at /resources/{slug}, newest first", () => {
    expect(resources.map((r) => r.slug).sort()).toEqual([...specSlugs].sort());
    for (const r of resources) expect(r.url).toBe(`/resources/${r.slug}`);
    const dates = resources.map((r) => r.date);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it("are the Markdown files, whose frontmatter the collection's schema accepts", () => {
    expect(readdirSync(resourcesDir).sort()).toEqual(specSlugs.map((slug) => `${slug}.md`).sort());
    expect(Object.keys(readResourceFrontmatter()).sort()).toEqual([...specSlugs].sort());
  });

  it("resources.generated.ts is the files' frontmatter (npm run generate writes it)", () => {
    expect(readFileSync(generatedModule, "utf8")).toBe(generatedSource(readResourceFrontmatter()));
  });

  it("are 4 articles, 4 episodes, 4 templates and 1 guide", () => {
    const count = (c: string) => resources.filter((r) => r.category === c).length;
    expect([count("blog"), count("podcast"), count("template"), count("guide")]).toEqual([4, 4, 4, 1]);
  });

  it("have every field a resource must have", () => {
    for (const r of resources) {
      for (const field of [r.title, r.description, r.image.src, r.image.alt, r.author, r.dateText, resourceLength(r)]) {
        expect(field.trim(), r.slug).not.toBe("");
      }
    }
  });

  it("show their ISO date as the display text", () => {
    const format = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });
    for (const r of resources) {
      expect(r.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(r.dateText, r.slug).toBe(format.format(new Date(`${r.date}T00:00:00Z`)));
    }
  });

  it("have a 640 × 360 cover in public/images/resources", () => {
    for (const r of resources) {
      expect(r.image.src).toBe(`/images/resources/${r.slug}.svg`);
      const svg = readFileSync(`${publicDir}${r.image.src}`, "utf8");
      expect(svg, r.slug).toMatch(/viewBox="0 0 640 360"/);
    }
  });

  it("templates link to their file in the public bucket downloads (from public/downloads/), whose size and kind the card states", () => {
    for (const r of resources) {
      if (r.category !== "template") continue;
      expect(r.download.href).toBe(`/storage/v1/object/public/downloads/${r.download.fileName}?download`);
      const bytes = statSync(`${publicDir}/downloads/${r.download.fileName}`).size;
      const format = r.download.fileName.endsWith(".csv") ? "CSV" : "Markdown";
      expect(r.downloadSize, r.slug).toBe(`${format}, ${Math.ceil(bytes / 1024)} KB`);
    }
  });

  it("the featured guide is the playbook, and every page is prerendered", () => {
    expect(findResource(featuredGuide.slug)?.category).toBe("guide");
    expect(featuredGuide.cta).toEqual({ label: "Read the Playbook", href: "/resources/saas-founders-playbook" });
    const paths = prerenderPaths();
    for (const r of resources) expect(paths).toContain(r.url);
    expect(paths).toContain("/resources/404");
    expect(paths).toContain("/rss.xml");
  });

  it("tabs and filter labels are the required ones", () => {
    expect(resourceTabs.map((t) => [t.label, t.href])).toEqual([
      ["All Resources", "/resources"],
      ["Blog", "/resources/blog"],
      ["Podcast", "/resources/podcasts"],
      ["Templates", "/resources/templates"],
    ]);
    expect(categoryFilterOptions.map((o) => `${o.value}:${o.label}`)).toEqual([
      "all:All",
      "blog:Articles",
      "podcast:Podcasts",
      "template:Templates",
      "guide:Guides",
    ]);
  });
});

describe("the resource schema", () => {
  const valid = { title: "T", description: "D", category: "blog", date: "2025-04-22", author: "A", cover: "C", readTime: "5 min read" };

  it.each([
    { name: "a valid article", data: valid, ok: true },
    { name: "no title", data: { ...valid, title: undefined }, ok: false },
    { name: "a blank title", data: { ...valid, title: " " }, ok: false },
    { name: "a date YAML read as a date", data: { ...valid, date: new Date("2025-04-22") }, ok: false },
    { name: "a day that does not exist", data: { ...valid, date: "2025-02-30" }, ok: false },
    { name: "a date in words", data: { ...valid, date: "April 22, 2025" }, ok: false },
    { name: "an unknown category", data: { ...valid, category: "video" }, ok: false },
    { name: "an episode without its listen time", data: { ...valid, category: "podcast" }, ok: false },
    { name: "a template without its file", data: { ...valid, category: "template", readTime: undefined, downloadSize: "CSV, 1 KB" }, ok: false },
    { name: "a misspelt field", data: { ...valid, autor: "A" }, ok: false },
  ])("$name: accepted $ok", ({ data, ok }) => {
    expect(resourceSchema.safeParse(data).success).toBe(ok);
  });

  it("knows a real day", () => {
    expect(isCalendarDate("2024-02-29")).toBe(true);
    expect(isCalendarDate("2025-02-29")).toBe(false);
    expect(isCalendarDate("2025-4-22")).toBe(false);
  });
});

describe("Markdown bodies", () => {
  it.each(specSlugs)("%s renders to HTML with sections, no h1 and no inline style", (slug) => {
    const html = renderBody(slug);
    expect(html).not.toMatch(/<h1[\s>]/);
    expect(html).not.toMatch(/\sstyle=/);
    expect(html.match(/<h2[\s>]/g)?.length ?? 0).toBeGreaterThanOrEqual(3);
    expect(html.length).toBeGreaterThan(1200);
  });

  it("episodes have show notes with a topic list", () => {
    for (const r of resources.filter((x) => x.category === "podcast")) {
      const html = renderBody(r.slug);
      expect(html, r.slug).toContain("<h2>Show notes</h2>");
      expect(html, r.slug).toMatch(/<h2>Topics in this episode<\/h2>\s*<ol>/);
    }
  });

  it("internal links in the bodies point at pages that exist", () => {
    const paths = new Set(prerenderPaths());
    for (const slug of specSlugs) {
      for (const [, href] of renderBody(slug).matchAll(/href="([^"]+)"/g)) {
        expect(href!.startsWith("/"), `${slug}: ${href}`).toBe(true);
        expect(paths.has(href!), `${slug}: ${href}`).toBe(true);
      }
    }
  });
});
