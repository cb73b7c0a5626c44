import { CheckCircle2 } from "lucide-react";
import type { CaseStudy as CaseStudyData } from "~/content/types";
import { caseStudyLabels } from "~/content/success-stories";
import { Image, type InlineArt } from "~/components/ui/image";

/**
 * CaseStudy tells one success story: context, challenge, solution, results and
 * the founder's words. On wide screens the picture and the quote sit beside
 * the story; on phones they come before and after it.
 */
export function CaseStudy({ study, art }: { study: CaseStudyData; /** The picture drawn inline: for the story in the first screen. */ art?: InlineArt }) {
  const headingId = `${study.id}-heading`;
  return (
    <article
      id={study.id}
      aria-labelledby={headingId}
      className="grid gap-8 rounded-3xl border border-slate-200 bg-white p-6 shadow-sm sm:p-10 lg:grid-cols-5 lg:grid-rows-[auto_1fr] lg:gap-x-12 dark:border-slate-800 dark:bg-slate-900"
    >
      <Image
        src={study.image.src}
        alt={study.image.alt}
        width={study.image.width}
        height={study.image.height}
        art={art}
        className="h-auto w-full rounded-2xl ring-1 ring-slate-900/5 lg:col-span-2 dark:ring-white/10"
      />
      <div className="lg:col-span-3 lg:col-start-3 lg:row-span-2 lg:row-start-1">
        <p className="text-sm font-semibold text-brand-700 dark:text-brand-300">
          {study.company} · {study.industry}
        </p>
        <h2 id={headingId} className="mt-2 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl dark:text-white">
          {study.title}
        </h2>
        <p className="mt-4 text-lg text-slate-600 dark:text-slate-300">{study.description}</p>
        <div className="mt-8 grid gap-8 md:grid-cols-2">
          <div>
            <h3 className="font-semibold text-slate-900 dark:text-white">{caseStudyLabels.challenge}</h3>
            <p className="mt-2 text-slate-600 dark:text-slate-300">{study.challenge}</p>
          </div>
          <div>
            <h3 className="font-semibold text-slate-900 dark:text-white">{caseStudyLabels.solution}</h3>
            <p className="mt-2 text-slate-600 dark:text-slate-300">{study.solution}</p>
          </div>
        </div>
        <h3 className="mt-8 font-semibold text-slate-900 dark:text-white">{caseStudyLabels.results}</h3>
        <ul className="mt-3 grid gap-3 sm:grid-cols-2">
          {study.results.map((r) => (
            <li key={r} className="flex gap-2.5 text-slate-700 dark:text-slate-200">
              <CheckCircle2 aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-emerald-600 dark:text-emerald-400" />
              {r}
            </li>
          ))}
        </ul>
      </div>
      <figure className="self-start rounded-2xl border-l-4 border-brand-600 bg-brand-50 p-5 lg:col-span-2 lg:col-start-1 lg:row-start-2 dark:border-brand-400 dark:bg-brand-500/10">
        <blockquote className="text-lg text-slate-800 italic dark:text-slate-100">
          <p>“{study.testimonial.quote}”</p>
        </blockquote>
        <figcaption className="mt-3 text-sm">
          <span className="font-semibold text-slate-900 dark:text-white">{study.testimonial.author}</span>
          <span className="text-slate-600 dark:text-slate-400">, {study.testimonial.role}</span>
        </figcaption>
      </figure>
    </article>
  );
}
