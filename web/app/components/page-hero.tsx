import type { ReactNode } from "react";

/** PageHero is the title band at the top of an inner page: the page's h1, a lead, and optional actions below. */
export function PageHero({ title, lead, eyebrow, children }: { title: string; lead?: string; eyebrow?: string; children?: ReactNode }) {
  return (
    <section className="border-b border-slate-200 bg-gradient-to-b from-brand-50 to-white dark:border-slate-800 dark:from-slate-900 dark:to-slate-950">
      <div className="mx-auto max-w-4xl px-4 py-16 text-center sm:px-6 sm:py-20 lg:px-8">
        {eyebrow && <p className="mb-3 text-sm font-semibold tracking-wide text-brand-700 uppercase dark:text-brand-300">{eyebrow}</p>}
        <h1 className="text-4xl font-bold tracking-tight text-balance text-slate-900 sm:text-5xl dark:text-white">{title}</h1>
        {lead && <p className="mx-auto mt-5 max-w-2xl text-lg text-slate-600 dark:text-slate-300">{lead}</p>}
        {children}
      </div>
    </section>
  );
}
