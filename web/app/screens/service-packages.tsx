import { CheckList } from "~/components/ui/check-list";
import type { ReactNode } from "react";
import {
  customSolution,
  howWeWork,
  packagesCta,
  packagesFaq,
  packagesSection,
  servicePackagesHero,
  servicePackagesMeta,
} from "~/content/service-packages";
import { buttonClass } from "~/components/ui/button";
import { Section } from "~/components/ui/section";
import { PageHero } from "~/components/page-hero";
import { PackageCard } from "~/components/package-card";
import { FeatureCard } from "~/components/feature-card";
import { CtaBand } from "~/components/cta-band";
import { pageMeta } from "~/lib/meta";
import { faqPage } from "~/lib/structured-data";

export const meta = (path: string) =>
  pageMeta(servicePackagesMeta, { path, jsonLd: [faqPage(packagesFaq.entries)] });

/** ServicePackages is the static part of the page; `faq` is the FAQ band with its accordion island. */
export default function ServicePackages({ faq }: { faq?: ReactNode }) {
  return (
    <>
      <PageHero eyebrow={servicePackagesHero.eyebrow} title={servicePackagesHero.title} lead={servicePackagesHero.lead} />

      <Section id="packages" title={packagesSection.title} lead={packagesSection.lead}>
        <div className="grid gap-8 lg:grid-cols-3">
          {packagesSection.packages.map((pkg) => (
            <PackageCard
              key={pkg.id}
              pkg={pkg}
              popularLabel={packagesSection.popularLabel}
              notIncludedLabel={packagesSection.notIncludedLabel}
            />
          ))}
        </div>
      </Section>

      <Section id="how-we-work" title={howWeWork.title} lead={howWeWork.lead} tone="muted">
        <div className="grid gap-6 md:grid-cols-3">
          {howWeWork.cards.map((card) => (
            <FeatureCard key={card.title} card={card} />
          ))}
        </div>
      </Section>

      <section aria-labelledby="custom-heading" className="py-16 sm:py-20">
        <div className="mx-auto max-w-6xl px-4 sm:px-6 lg:px-8">
        <div className="grid items-center gap-8 rounded-3xl border border-slate-200 bg-white p-6 shadow-sm sm:p-12 lg:grid-cols-[3fr_2fr] dark:border-slate-800 dark:bg-slate-900">
          <div>
            <h2 id="custom-heading" className="text-3xl font-bold tracking-tight text-slate-900 dark:text-white">
              {customSolution.title}
            </h2>
            <p className="mt-4 text-lg text-slate-600 dark:text-slate-300">{customSolution.text}</p>
            <a href={customSolution.link.href} className={buttonClass("primary", "lg", "mt-8")}>
              {customSolution.link.label}
            </a>
          </div>
          <CheckList items={customSolution.points} className="space-y-4" />
        </div>
        </div>
      </section>

      {faq}

      <CtaBand {...packagesCta} />
    </>
  );
}
