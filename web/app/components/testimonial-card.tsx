import type { Testimonial } from "~/content/types";
import { Stars } from "~/components/ui/stars";

function initials(name: string): string {
  return name
    .split(/\s+/)
    .map((part) => part[0])
    .join("")
    .slice(0, 2)
    .toUpperCase();
}

/** TestimonialCard shows a quote with its rating and who said it. */
export function TestimonialCard({ testimonial: t }: { testimonial: Testimonial }) {
  return (
    <figure className="flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <Stars rating={t.rating} />
      <blockquote className="mt-4 flex-1 text-slate-700 dark:text-slate-200">
        <p>“{t.quote}”</p>
      </blockquote>
      <figcaption className="mt-6 flex items-center gap-3">
        <span
          aria-hidden="true"
          className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-100 text-sm font-semibold text-brand-800 dark:bg-brand-500/20 dark:text-brand-200"
        >
          {initials(t.author)}
        </span>
        <span>
          <span className="block font-semibold text-slate-900 dark:text-white">{t.author}</span>
          <span className="block text-sm text-slate-600 dark:text-slate-400">
            {t.role}, {t.company}
          </span>
        </span>
      </figcaption>
    </figure>
  );
}
