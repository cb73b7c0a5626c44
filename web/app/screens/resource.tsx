import { ChevronRight, Download } from "lucide-react";
import {
  categoryLabels,
  categoryPages,
  findResource,
  resourceBasePath,
  resourceDetail,
  resourceLength,
  resources,
  type Resource,
} from "~/content/resources";
import { notFound } from "~/content/site";
import { NotFound } from "~/components/not-found";
import { Image } from "~/components/ui/image";
import { buttonClass } from "~/components/ui/button";
import { CategoryBadge, ResourceGrid, resourceFallback } from "~/components/resources/resource-card";
import { proseClass } from "~/components/resources/prose";
import { sortResources } from "~/lib/resource-list";
import { feedLink } from "~/lib/feed";
import { pageMeta } from "~/lib/meta";
import { article } from "~/lib/structured-data";
import { inlineArt } from "~/lib/inline-art";

const RELATED_COUNT = 3;

/** meta makes the head tags of the resource page at path; an unknown slug gets Page Not Found's. */
export const meta = (path: string, { slug }: { slug: string }) => {
  const resource = findResource(slug);
  if (!resource) return pageMeta({ title: notFound.title, description: notFound.text }, { path, noindex: true });
  const isArticle = resource.category === "blog" || resource.category === "guide";
  const jsonLd = isArticle
    ? [article({ title: resource.title, description: resource.description, image: resource.image.src, date: resource.date, author: resource.author, path })]
    : [];
  return [...pageMeta(resource, { path, type: isArticle ? "article" : "website", jsonLd }), feedLink];
};

/** The list page a resource belongs to, for the breadcrumb. */
function categoryPage(category: Resource["category"]) {
  const entry = Object.entries(categoryPages).find(([, p]) => p.category === category);
  return entry ? { label: entry[1].title, href: `${resourceBasePath}/${entry[0]}` } : undefined;
}

function related(resource: Resource): Resource[] {
  const others = sortResources(
    resources.filter((r) => r.slug !== resource.slug),
    "newest",
  );
  const same = others.filter((r) => r.category === resource.category);
  return [...same, ...others.filter((r) => r.category !== resource.category)].slice(0, RELATED_COUNT);
}

/**
 * ResourcePage is a resource's page; bodyHtml is its Markdown body as HTML,
 * rendered while the site is built, so neither the Markdown nor its library
 * reaches the browser. An unknown slug shows Page Not Found.
 */
export default function ResourcePage({ slug, bodyHtml = "" }: { slug: string; bodyHtml?: string }) {
  const resource = findResource(slug);
  if (!resource) return <NotFound />;
  const section = categoryPage(resource.category);

  return (
    <>
      <article className="mx-auto max-w-3xl px-4 pt-8 pb-16 sm:px-6 sm:pt-12 lg:px-8">
        <nav aria-label="Breadcrumb">
          <ol className="flex flex-wrap items-center gap-1 text-sm text-slate-600 dark:text-slate-400">
            <li>
              <a href={resourceBasePath} className="rounded hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-300 dark:hover:text-brand-200">
                {resourceDetail.back}
              </a>
            </li>
            {section && (
              <li className="flex items-center gap-1">
                <ChevronRight aria-hidden="true" className="size-4" />
                <a href={section.href} className="rounded hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-300 dark:hover:text-brand-200">
                  {section.label}
                </a>
              </li>
            )}
          </ol>
        </nav>

        <header className="mt-8">
          <CategoryBadge category={resource.category} />
          <h1 className="mt-4 text-3xl leading-tight font-bold tracking-tight text-balance text-slate-900 sm:text-4xl dark:text-white">
            {resource.title}
          </h1>
          <p className="mt-4 text-lg text-slate-600 sm:text-xl dark:text-slate-300">{resource.description}</p>
          <dl className="mt-6 flex flex-wrap gap-x-6 gap-y-2 text-sm text-slate-600 dark:text-slate-400">
            <div className="flex gap-1.5">
              <dt>{resourceDetail.by}</dt>
              <dd className="font-medium text-slate-900 dark:text-white">{resource.author}</dd>
            </div>
            <div className="flex gap-1.5">
              <dt className="sr-only">{resourceDetail.published}</dt>
              <dd>
                <time dateTime={resource.date}>{resource.dateText}</time>
              </dd>
            </div>
            <div className="flex gap-1.5">
              <dt className="sr-only">{categoryLabels[resource.category]}</dt>
              <dd data-testid="resource-length">{resourceLength(resource)}</dd>
            </div>
          </dl>
        </header>

        <Image
          src={resource.image.src}
          alt={resource.image.alt}
          width={640}
          height={360}
          art={inlineArt(resource.image.src)}
          fallback={resourceFallback(resource.title)}
          className="mt-10 aspect-video h-auto w-full rounded-2xl bg-slate-100 object-cover shadow-sm ring-1 ring-slate-900/5 dark:bg-slate-800 dark:ring-white/10"
        />

        {resource.category === "template" && (
          <aside
            aria-labelledby="download-heading"
            className="mt-10 flex flex-col gap-4 rounded-2xl border border-emerald-200 bg-emerald-50 p-6 sm:flex-row sm:items-center sm:justify-between dark:border-emerald-400/30 dark:bg-emerald-400/10"
          >
            <div>
              <h2 id="download-heading" className="text-lg font-semibold text-slate-900 dark:text-white">
                {resourceDetail.downloadTitle}
              </h2>
              <p className="mt-1 text-sm break-all text-slate-700 dark:text-slate-300">
                <span className="font-mono">{resource.download.fileName}</span>
              </p>
              <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
                {resource.download.kind} · {resource.downloadSize}
              </p>
            </div>
            <a href={resource.download.href} download={resource.download.fileName} className={buttonClass("primary", "md", "shrink-0")}>
              <Download aria-hidden="true" className="size-4" />
              {resourceDetail.downloadButton}
              <span className="sr-only"> {resource.download.fileName}</span>
            </a>
          </aside>
        )}

        <div
          data-testid="resource-body"
          className={`mt-10 ${proseClass}`}
          dangerouslySetInnerHTML={{ __html: bodyHtml }}
        />
      </article>

      <section aria-labelledby="more-heading" className="border-t border-slate-200 bg-slate-50 py-16 dark:border-slate-800 dark:bg-slate-900/60">
        <div className="mx-auto max-w-6xl px-4 sm:px-6 lg:px-8">
          <h2 id="more-heading" className="text-2xl font-bold tracking-tight text-slate-900 dark:text-white">
            {resourceDetail.more}
          </h2>
          <div className="mt-8">
            <ResourceGrid resources={related(resource)} />
          </div>
        </div>
      </section>
    </>
  );
}
