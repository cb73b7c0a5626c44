import { Download } from "lucide-react";
import { categoryLabels, resourceCard, resourceLength, type Resource } from "~/content/resources";
import { Image, type InlineArt } from "~/components/ui/image";
import { resourceFallbackIndex, resourceFallbacks } from "~/lib/image-fallback";
import { cn } from "~/lib/cn";

const COVER_WIDTH = 640;
const COVER_HEIGHT = 360;

/** resourceFallback is a card's fallback picture: from a fixed list, by an index derived from the title. */
export function resourceFallback(title: string): string {
  return resourceFallbacks[resourceFallbackIndex(title)] ?? resourceFallbacks[0]!;
}

export const categoryBadgeClass: Record<Resource["category"], string> = {
  blog: "bg-sky-50 text-sky-800 ring-sky-600/20 dark:bg-sky-400/10 dark:text-sky-200 dark:ring-sky-400/30",
  podcast: "bg-violet-50 text-violet-800 ring-violet-600/20 dark:bg-violet-400/10 dark:text-violet-200 dark:ring-violet-400/30",
  template: "bg-emerald-50 text-emerald-800 ring-emerald-600/20 dark:bg-emerald-400/10 dark:text-emerald-200 dark:ring-emerald-400/30",
  guide: "bg-amber-50 text-amber-800 ring-amber-600/20 dark:bg-amber-400/10 dark:text-amber-200 dark:ring-amber-400/30",
};

export function CategoryBadge({ category }: { category: Resource["category"] }) {
  return (
    <span className={cn("inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset", categoryBadgeClass[category])}>
      {categoryLabels[category]}
    </span>
  );
}

/**
 * ResourceCard shows one resource in a list: cover, category, date, title
 * (the link to its page, stretched over the whole card), description, author
 * and its read time, listen time or download size. Templates also offer the
 * file itself.
 */
export function ResourceCard({
  resource,
  headingLevel = 3,
  art,
}: {
  resource: Resource;
  headingLevel?: 2 | 3;
  /** The cover drawn inline (lib/inline-art.ts): for a card in the first screen, whose cover then paints with the text. */
  art?: InlineArt;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article
      data-testid="resource-card"
      className="group relative flex h-full flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md has-[.card-link:focus-visible]:outline-2 has-[.card-link:focus-visible]:outline-offset-2 has-[.card-link:focus-visible]:outline-brand-600 dark:has-[.card-link:focus-visible]:outline-brand-300 dark:border-slate-800 dark:bg-slate-900"
    >
      <Image
        src={resource.image.src}
        alt=""
        width={COVER_WIDTH}
        height={COVER_HEIGHT}
        fallback={resourceFallback(resource.title)}
        art={art}
        className="aspect-video h-auto w-full bg-slate-100 object-cover dark:bg-slate-800"
      />
      <div className="flex flex-1 flex-col p-5">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600 dark:text-slate-400">
          <CategoryBadge category={resource.category} />
          <time dateTime={resource.date}>{resource.dateText}</time>
        </div>
        <Heading className="mt-3 text-lg leading-snug font-semibold text-slate-900 dark:text-white">
          <a
            href={resource.url}
            className="card-link after:absolute after:inset-0 hover:text-brand-700 focus-visible:outline-none dark:hover:text-brand-200"
          >
            {resource.title}
          </a>
        </Heading>
        <p className="mt-2 line-clamp-3 text-sm text-slate-600 dark:text-slate-300">{resource.description}</p>
        <div className="mt-auto flex flex-wrap items-center justify-between gap-x-3 gap-y-2 pt-4 text-sm">
          <p className="text-slate-600 dark:text-slate-400">
            <span className="font-medium text-slate-800 dark:text-slate-200">
              {resourceCard.by} {resource.author}
            </span>
            <span aria-hidden="true"> · </span>
            <span data-testid="resource-length">{resourceLength(resource)}</span>
          </p>
          {resource.category === "template" && (
            <a
              href={resource.download.href}
              download={resource.download.fileName}
              className="relative z-10 inline-flex items-center gap-1.5 rounded-md font-semibold text-brand-700 hover:text-brand-900 focus-visible:outline-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-300 dark:text-brand-300 dark:hover:text-brand-100"
            >
              <Download aria-hidden="true" className="size-4" />
              {resourceCard.download}
              <span className="sr-only">
                {" "}
                {resource.title} ({resource.downloadSize})
              </span>
            </a>
          )}
        </div>
      </div>
    </article>
  );
}

/**
 * ResourceGrid lays out cards in one, two or three columns. With firstArt,
 * the grid starts in the first screen and its first cover is drawn inline
 * (the others load when they come near the viewport).
 */
export function ResourceGrid({
  resources,
  headingLevel,
  firstArt,
}: {
  resources: readonly Resource[];
  headingLevel?: 2 | 3;
  firstArt?: InlineArt;
}) {
  return (
    <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {resources.map((r, i) => (
        <li key={r.slug}>
          <ResourceCard resource={r} headingLevel={headingLevel} art={i === 0 ? firstArt : undefined} />
        </li>
      ))}
    </ul>
  );
}
