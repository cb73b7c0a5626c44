import { ArrowRight } from "lucide-react";
import { processIntro, processSteps, studioCta, studioHero, studioMeta, studioTestimonials, whyChoose } from "~/content/studio";
import { buttonClass } from "~/components/ui/button";
import { Section } from "~/components/ui/section";
import { PageHero } from "~/components/page-hero";
import { ProcessStep } from "~/components/process-step";
import { FeatureCard } from "~/components/feature-card";
import { TestimonialCard } from "~/components/testimonial-card";
import { CtaBand } from "~/components/cta-band";
import { pageMeta } from "~/lib/meta";

export const meta = (path: string) => pageMeta(studioMeta, { path });

export default function Studio() {
  return (
    <>
      <PageHero eyebrow={studioHero.eyebrow} title={studioHero.title} lead={studioHero.lead}>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <a href={studioHero.primary.href} className={buttonClass("primary", "lg")}>
            {studioHero.primary.label}
            <ArrowRight aria-hidden="true" className="size-4" />
          </a>
          <a href={studioHero.secondary.href} className={buttonClass("secondary", "lg")}>
            {studioHero.secondary.label}
          </a>
        </div>
      </PageHero>

      <Section id="process" title={processIntro.title} lead={processIntro.lead}>
        <ol className="space-y-20 sm:space-y-24">
          {processSteps.map((step) => (
            <ProcessStep key={step.id} step={step} stepLabel={processIntro.stepLabel} />
          ))}
        </ol>
      </Section>

      <Section id="why-choose" title={whyChoose.title} lead={whyChoose.lead} tone="muted">
        <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {whyChoose.cards.map((card) => (
            <FeatureCard key={card.title} card={card} />
          ))}
        </div>
      </Section>

      <Section id="testimonials" title={studioTestimonials.title} lead={studioTestimonials.lead}>
        <div className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
          {studioTestimonials.items.map((t) => (
            <TestimonialCard key={t.author} testimonial={t} />
          ))}
        </div>
      </Section>

      <CtaBand {...studioCta} />
    </>
  );
}
