import { ArrowRight } from "lucide-react";
import { caseStudies, successStoriesCta, successStoriesHero, successStoriesMeta } from "~/content/success-stories";
import { buttonClass } from "~/components/ui/button";
import { PageHero } from "~/components/page-hero";
import { CaseStudy } from "~/components/case-study";
import { CtaBand } from "~/components/cta-band";
import { pageMeta } from "~/lib/meta";
import { inlineArt } from "~/lib/inline-art";

export const meta = (path: string) => pageMeta(successStoriesMeta, { path });

export default function SuccessStories() {
  return (
    <>
      <PageHero eyebrow={successStoriesHero.eyebrow} title={successStoriesHero.title} lead={successStoriesHero.lead}>
        <a href={successStoriesHero.bookCall.href} className={buttonClass("primary", "lg", "mt-8")}>
          {successStoriesHero.bookCall.label}
          <ArrowRight aria-hidden="true" className="size-4" />
        </a>
      </PageHero>

      <div data-first-screen="" className="mx-auto max-w-6xl space-y-12 px-4 py-16 sm:px-6 sm:py-20 lg:px-8">
        {caseStudies.map((study, i) => (
          <CaseStudy key={study.id} study={study} art={i === 0 ? inlineArt(study.image.src) : undefined} />
        ))}
      </div>

      <CtaBand {...successStoriesCta} />
    </>
  );
}
