import type { ReactNode } from "react";
import { ArrowRight } from "lucide-react";
import type { Venture } from "~/content/types";
import { ventureBadge, venturesSection } from "~/content/ventures";
import { Image } from "~/components/ui/image";
import { StatusBadge } from "~/components/status-badge";

const labels = venturesSection.labels;

/** VentureCard is a company of the portfolio; its status badge (`badge`, an island) explains itself in a tooltip. */
export function VentureCard({ venture, badge }: { venture: Venture; badge?: ReactNode }) {
  return (
    <article id={`venture-${venture.name.toLowerCase()}`} className="flex scroll-mt-24 flex-col rounded-2xl border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md dark:border-slate-800 dark:bg-slate-900">
      <Image
        src={venture.image}
        alt={venture.imageAlt}
        width={640}
        height={360}
        className="aspect-video h-auto w-full rounded-t-2xl object-cover"
      />
      <div className="flex flex-1 flex-col p-6">
        <p className="text-sm font-semibold text-brand-700 dark:text-brand-300">{venture.category}</p>
        <div className="mt-1 flex flex-wrap items-center justify-between gap-2">
          <h3 className="text-xl font-bold text-slate-900 dark:text-white">{venture.name}</h3>
          {badge ?? <StatusBadge badge={ventureBadge(venture.status)} tooltipAlign="end" />}
        </div>
        <p className="mt-3 flex-1 text-slate-600 dark:text-slate-300">{venture.description}</p>
        <dl className="mt-5 grid grid-cols-2 gap-4 border-t border-slate-200 pt-4 text-sm dark:border-slate-800">
          <div>
            <dt className="text-slate-600 dark:text-slate-400">{labels.fundingStage}</dt>
            <dd className="font-semibold text-slate-900 dark:text-white">{venture.fundingStage}</dd>
          </div>
          <div>
            <dt className="text-slate-600 dark:text-slate-400">{labels.yearFounded}</dt>
            <dd className="font-semibold text-slate-900 dark:text-white">{venture.yearFounded}</dd>
          </div>
        </dl>
        <a
          href={venture.link}
          className="mt-5 inline-flex items-center gap-1.5 self-start rounded-md font-semibold text-brand-700 hover:text-brand-800 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-300 dark:text-brand-300 dark:hover:text-brand-200"
        >
          {labels.viewDetails}
          <span className="sr-only">{labels.viewDetailsOf(venture.name)}</span>
          <ArrowRight aria-hidden="true" className="size-4" />
        </a>
      </div>
    </article>
  );
}
