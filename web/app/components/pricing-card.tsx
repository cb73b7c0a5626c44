import { Check } from "lucide-react";
import type { PricingPlan } from "~/content/types";
import { buttonClass } from "~/components/ui/button";
import { ExternalLink } from "~/components/ui/external-link";
import { cn } from "~/lib/cn";

/** PricingCard shows a product's price plan; the most popular plan is highlighted. */
export function PricingCard({ plan, popularLabel }: { plan: PricingPlan; popularLabel: string }) {
  const buttonStyle = buttonClass(plan.mostPopular ? "primary" : "secondary", "md", "mt-8 w-full");
  return (
    <article
      className={cn(
        "relative flex flex-col rounded-2xl border bg-white p-6 shadow-sm sm:p-8 dark:bg-slate-900",
        plan.mostPopular
          ? "border-brand-500 ring-2 ring-brand-500 dark:border-brand-400 dark:ring-brand-400"
          : "border-slate-200 dark:border-slate-800",
      )}
    >
      {plan.mostPopular && (
        <p className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-brand-600 px-3 py-1 text-xs font-semibold whitespace-nowrap text-white">
          {popularLabel}
        </p>
      )}
      <h3 className="text-xl font-semibold text-slate-900 dark:text-white">{plan.name}</h3>
      <p className="mt-4 flex items-baseline text-slate-900 dark:text-white">
        <span className="text-4xl font-bold tracking-tight">{plan.price}</span>
        {plan.period && <span className="ml-1 text-base font-medium text-slate-600 dark:text-slate-400">{plan.period}</span>}
      </p>
      <p className="mt-4 text-slate-600 dark:text-slate-300">{plan.description}</p>
      <ul className="mt-6 flex-1 space-y-3">
        {plan.features.map((f) => (
          <li key={f} className="flex items-start gap-3 text-sm text-slate-700 dark:text-slate-200">
            <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-600 dark:text-emerald-400" />
            {f}
          </li>
        ))}
      </ul>
      {plan.external ? (
        <ExternalLink href={plan.buttonLink} className={buttonStyle}>
          {plan.buttonText}
        </ExternalLink>
      ) : (
        <a href={plan.buttonLink} className={buttonStyle}>
          {plan.buttonText}
        </a>
      )}
    </article>
  );
}
