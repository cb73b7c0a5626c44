import type { ReactNode } from "react";
import { ArrowRight } from "lucide-react";
import { featuredGuide, findResource, hubPage, resourceLength } from "~/content/resources";
import { PageHero } from "~/components/page-hero";
import { buttonClass } from "~/components/ui/button";
import { Image } from "~/components/ui/image";
import { ResourceTabs } from "~/components/resources/resource-tabs";
import { CategoryBadge, resourceFallback } from "~/components/resources/resource-card";
import { feedLink } from "~/lib/feed";
import { inlineArt } from "~/lib/inline-art";
import { pageMeta } from "~/lib/meta";

export const meta = (path: string) => [...pageMeta(hubPage, { path }), feedLink];

function FeaturedGuide() {
  const guide = findResource(featuredGuide.slug);
  if (!guide) throw new Error(`featured guide ${featuredGuide.slug} is not a resource`);
  return (
    <section aria-labelledby="featured-heading" data-first-screen="" className="pt-12 sm:pt-16">
      <div className="mx-auto max-w-6xl px-4 sm:px-6 lg:px-8">
        <div className="grid overflow-hidden rounded-3xl border border-slate-200 bg-white shadow-sm lg:grid-cols-2 dark:border-slate-800 dark:bg-slate-900">
          <Image
            src={guide.image.src}
            alt={guide.image.alt}
            width={640}
            height={360}
            fallback={resourceFallback(guide.title)}
            art={inlineArt(guide.image.src)}
            className="aspect-video h-full w-full bg-brand-50 object-cover dark:bg-slate-800"
          />
          <div className="flex flex-col justify-center p-6 sm:p-10">
            <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase dark:text-brand-300">{featuredGuide.eyebrow}</p>
            <h2 id="featured-heading" className="mt-3 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl dark:text-white">
              {guide.title}
            </h2>
            <p className="mt-4 text-slate-600 dark:text-slate-300">{guide.description}</p>
            <div className="mt-4 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600 dark:text-slate-400">
              <CategoryBadge category={guide.category} />
              <span>{guide.author}</span>
              <span aria-hidden="true">·</span>
              <span>{resourceLength(guide)}</span>
            </div>
            <div className="mt-8">
              <a href={featuredGuide.cta.href} className={buttonClass("primary", "lg")}>
                {featuredGuide.cta.label}
                <ArrowRight aria-hidden="true" className="size-4" />
              </a>
            </div>
          </div>
        </div>
      </div>
    </section>
  );
}

/** ResourcesHub is the static part of /resources; the list and the newsletter sign-up are islands placed by the page. */
export default function ResourcesHub({ browser, newsletter }: { browser?: ReactNode; newsletter?: ReactNode }) {
  return (
    <>
      <PageHero title={hubPage.title} lead={hubPage.description} />
      <ResourceTabs current="/resources" />
      <FeaturedGuide />
      {browser}
      {newsletter}
    </>
  );
}
