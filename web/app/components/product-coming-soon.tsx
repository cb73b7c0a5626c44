import type { ReactNode } from "react";
import { comingSoonCopy as copy, type UpcomingProduct } from "~/content/products";
import { buttonClass } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import { Section } from "~/components/ui/section";
import { ProductHero } from "~/components/product-hero";
import { SiteLink } from "~/components/site-link";
import { CtaBand } from "~/components/cta-band";
import { inlineArt } from "~/lib/inline-art";

/** ComingSoonProductPage is a product page in coming-soon mode: the waitlist (`waitlist`, a form island), the launch details and a call to stay updated. */
export function ComingSoonProductPage({ product, waitlist }: { product: UpcomingProduct; waitlist?: ReactNode }) {
  return (
    <>
      <ProductHero product={product} points={product.highlights} art={inlineArt(product.image)}>
        <SiteLink link={copy.joinWaitlist} className={buttonClass("primary", "lg")} />
        <SiteLink link={copy.getUpdates} className={buttonClass("secondary", "lg")} />
      </ProductHero>

      <Section id={copy.section.id} title={copy.section.title} lead={copy.section.lead(product.name)}>
        <div className="mx-auto max-w-2xl rounded-3xl border border-slate-200 bg-white p-6 shadow-sm sm:p-10 dark:border-slate-800 dark:bg-slate-900">
          {waitlist}
        </div>
      </Section>

      <Section id="launch-details" title={copy.infoTitle} tone="muted">
        <dl className="grid gap-6 md:grid-cols-3">
          {copy.infoCards.map((card) => (
            <div
              key={card.label}
              className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900"
            >
              <dt className="flex items-center gap-3 text-sm font-semibold text-slate-600 dark:text-slate-400">
                <span className="inline-flex size-10 items-center justify-center rounded-xl bg-brand-50 text-brand-700 dark:bg-brand-500/15 dark:text-brand-300">
                  <Icon name={card.icon} className="size-5" />
                </span>
                {card.label}
              </dt>
              <dd className="mt-4 text-2xl font-bold text-slate-900 dark:text-white">{card.value}</dd>
              <dd className="mt-1 text-sm text-slate-600 dark:text-slate-300">{card.note}</dd>
            </div>
          ))}
        </dl>
      </Section>

      <CtaBand {...copy.cta(product)} />
    </>
  );
}
