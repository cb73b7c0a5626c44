import type { ReactNode } from "react";
import { ArrowRight } from "lucide-react";
import { liveProductCopy as copy, type LiveProduct } from "~/content/products";
import { buttonClass } from "~/components/ui/button";
import { ExternalLink } from "~/components/ui/external-link";
import { Section } from "~/components/ui/section";
import { ProductHero } from "~/components/product-hero";
import { FeatureCard } from "~/components/feature-card";
import { TestimonialCard } from "~/components/testimonial-card";
import { PricingCard } from "~/components/pricing-card";
import { SiteLink } from "~/components/site-link";
import { CtaBand } from "~/components/cta-band";

/** LiveProductPage is a product page in live mode: features, testimonials, pricing, FAQ (`faq`, with its accordion island) and a call to try it. */
export function LiveProductPage({ product, faq }: { product: LiveProduct; faq?: ReactNode }) {
  return (
    <>
      {/* No inline art: a live product's page, with its features, pricing and questions, has no bytes left
          in the first round trip for it (internal/server/first_paint_test.go); its picture loads lazily. */}
      <ProductHero product={product}>
        <ExternalLink href={product.demoUrl} className={buttonClass("primary", "lg")}>
          {copy.startTrial}
        </ExternalLink>
        <SiteLink link={copy.learnMore} className={buttonClass("secondary", "lg")}>
          {copy.learnMore.label}
          <ArrowRight aria-hidden="true" className="size-4" />
        </SiteLink>
      </ProductHero>

      <Section id={copy.features.id} title={copy.features.title} lead={copy.features.lead(product.name)}>
        <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {product.features.map((card) => (
            <FeatureCard key={card.title} card={card} />
          ))}
        </div>
      </Section>

      <Section id={copy.testimonials.id} title={copy.testimonials.title} lead={copy.testimonials.lead(product.name)} tone="muted">
        <div className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
          {product.testimonials.map((t) => (
            <TestimonialCard key={t.author} testimonial={t} />
          ))}
        </div>
      </Section>

      <Section id={copy.pricing.id} title={copy.pricing.title} lead={copy.pricing.lead}>
        <div className="grid gap-8 lg:grid-cols-3">
          {product.pricing.map((plan) => (
            <PricingCard key={plan.id} plan={plan} popularLabel={copy.pricing.popularLabel} />
          ))}
        </div>
        <p className="mt-10 text-center font-medium text-slate-700 dark:text-slate-200">{copy.pricing.guarantee}</p>
      </Section>

      {faq}

      <CtaBand {...copy.cta(product)} />
    </>
  );
}
