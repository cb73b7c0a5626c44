import { Check, X } from "lucide-react";
import type { ServicePackage } from "~/content/types";
import { buttonClass } from "~/components/ui/button";
import { cn } from "~/lib/cn";

/** PackageCard shows a service package: price, description, what is and is not included. */
export function PackageCard({
  pkg,
  popularLabel,
  notIncludedLabel,
}: {
  pkg: ServicePackage;
  popularLabel: string;
  notIncludedLabel: string;
}) {
  return (
    <article
      className={cn(
        "relative flex flex-col rounded-2xl border bg-white p-6 shadow-sm sm:p-8 dark:bg-slate-900",
        pkg.popular ? "border-brand-500 ring-2 ring-brand-500 dark:border-brand-400 dark:ring-brand-400" : "border-slate-200 dark:border-slate-800",
      )}
    >
      {pkg.popular && (
        <p className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-brand-600 px-3 py-1 text-xs font-semibold text-white">
          {popularLabel}
        </p>
      )}
      <h3 className="text-xl font-semibold text-slate-900 dark:text-white">{pkg.name}</h3>
      <p className="mt-4 text-3xl font-bold tracking-tight text-slate-900 dark:text-white">{pkg.price}</p>
      {pkg.priceNote && <p className="mt-1 text-sm font-medium text-brand-700 dark:text-brand-300">{pkg.priceNote}</p>}
      <p className="mt-4 text-slate-600 dark:text-slate-300">{pkg.description}</p>
      <ul className="mt-6 flex-1 space-y-3">
        {pkg.features.map((f) => (
          <li key={f.title} className="flex items-start gap-3 text-sm">
            {f.included ? (
              <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-600 dark:text-emerald-400" />
            ) : (
              <X aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-slate-400 dark:text-slate-500" />
            )}
            <span className={f.included ? "text-slate-700 dark:text-slate-200" : "text-slate-500 line-through dark:text-slate-400"}>
              {f.title}
              {!f.included && <span className="sr-only"> ({notIncludedLabel})</span>}
            </span>
          </li>
        ))}
      </ul>
      <a href={pkg.buttonLink} className={buttonClass(pkg.popular ? "primary" : "secondary", "md", "mt-8 w-full")}>
        {pkg.buttonText}
      </a>
    </article>
  );
}
