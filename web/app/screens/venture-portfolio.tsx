import type { ReactNode } from "react";
import { investmentCriteria, portfolioStats, venturesCta, venturesHero, venturesMeta, venturesSection } from "~/content/ventures";
import { Section } from "~/components/ui/section";
import { PageHero } from "~/components/page-hero";
import { StatsRow } from "~/components/stats-row";
import { FeatureCard } from "~/components/feature-card";
import { CtaBand } from "~/components/cta-band";
import { pageMeta } from "~/lib/meta";

export const meta = (path: string) => pageMeta(venturesMeta, { path });

/** VenturePortfolio is the static part of the page; `ventures` is the cards, placed by the page with their badge islands. */
export default function VenturePortfolio({ ventures }: { ventures?: ReactNode }) {
  return (
    <>
      <PageHero eyebrow={venturesHero.eyebrow} title={venturesHero.title} lead={venturesHero.lead}>
        <StatsRow stats={portfolioStats.stats} label={portfolioStats.label} className="mt-10 text-left" />
      </PageHero>

      <Section id="ventures" title={venturesSection.title} lead={venturesSection.lead}>
        <div className="grid gap-8 md:grid-cols-2 lg:grid-cols-3">
          {ventures}
        </div>
      </Section>

      <Section id="investment-criteria" title={investmentCriteria.title} lead={investmentCriteria.lead} tone="muted">
        <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {investmentCriteria.cards.map((card) => (
            <FeatureCard key={card.title} card={card} />
          ))}
        </div>
      </Section>

      <CtaBand {...venturesCta} />
    </>
  );
}
