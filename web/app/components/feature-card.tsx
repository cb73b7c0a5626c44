import type { FeatureCard as FeatureCardData } from "~/content/types";
import { Icon } from "~/components/ui/icon";

/** FeatureCard: an icon, a title and a short description. */
export function FeatureCard({ card, headingLevel = 3 }: { card: FeatureCardData; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition-shadow hover:shadow-md dark:border-slate-800 dark:bg-slate-900">
      <span className="inline-flex size-11 items-center justify-center rounded-xl bg-brand-50 text-brand-700 dark:bg-brand-500/15 dark:text-brand-300">
        <Icon name={card.icon} className="size-5" />
      </span>
      <Heading className="mt-4 text-lg font-semibold text-slate-900 dark:text-white">{card.title}</Heading>
      <p className="mt-2 text-slate-600 dark:text-slate-300">{card.description}</p>
    </article>
  );
}
