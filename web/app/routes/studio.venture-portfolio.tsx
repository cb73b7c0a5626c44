import type { MetaArgs } from "react-router";
import { investmentCriteria, portfolioStats, venturesCta, venturesHero, venturesMeta, venturesSection } from "~/content/ventures";
import { Section } from "~/components/ui/section";
import { PageHero } from "~/components/page-hero";
import { StatsRow } from "~/components/stats-row";
import { VentureCard } from "~/components/venture-card";
import { FeatureCard } from "~/components/feature-card";
import { CtaBand } from "~/components/cta-band";
import { pageMeta } from "~/lib/meta";

export const meta = ({ location }: MetaArgs) => pageMeta(venturesMeta, { path: location.pathname });

export default function VenturePortfolio() {
  return (
    <>
      <PageHero eyebrow={venturesHero.eyebrow} title={venturesHero.title} lead={venturesHero.lead}>
        <StatsRow stats={portfolioStats.stats} label={portfolioStats.label} className="mt-10 text-left" />
      </PageHero>

      <Section id="ventures" title={venturesSection.title} lead={venturesSection.lead}>
        <div className="grid gap-8 md:grid-cols-2 lg:grid-cols-3">
          {venturesSection.ventures.map((v) => (
            <VentureCard key={v.name} venture={v} />
          ))}
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
