import { ArrowRight } from "lucide-react";
import { approach, flagship, hero, homeCta, homeMeta, homePackages, homeTestimonials, logoStrip } from "~/content/home";
import { buttonClass } from "~/components/ui/button";
import { ExternalLink } from "~/components/ui/external-link";
import { CheckList } from "~/components/ui/check-list";
import { Image } from "~/components/ui/image";
import { Section } from "~/components/ui/section";
import { FeatureCard } from "~/components/feature-card";
import { PackageCard } from "~/components/package-card";
import { TestimonialCard } from "~/components/testimonial-card";
import { CtaBand } from "~/components/cta-band";
import { pageMeta } from "~/lib/meta";

export const meta = (path: string) => pageMeta(homeMeta, { path, fullTitle: true });

const LOGO_WIDTH = 120;
const LOGO_HEIGHT = 40;

export default function Home() {
  return (
    <>
      <section className="relative overflow-hidden bg-gradient-to-b from-brand-50 via-white to-white dark:from-slate-900 dark:via-slate-950 dark:to-slate-950">
        <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 pt-8 pb-14 sm:px-6 sm:pt-16 lg:grid-cols-2 lg:gap-12 lg:px-8 lg:py-24">
          <div>
            <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase dark:text-brand-300">{hero.eyebrow}</p>
            <h1 className="mt-3 text-[2rem] leading-tight font-extrabold tracking-tight text-balance text-slate-900 sm:text-5xl lg:text-6xl dark:text-white">
              {hero.headline}
            </h1>
            <p className="mt-4 text-base text-slate-600 sm:mt-5 sm:text-xl dark:text-slate-300">{hero.lead}</p>
            <div className="mt-6 flex flex-wrap gap-3 sm:mt-7">
              <a href={hero.primary.href} className={buttonClass("primary", "lg")}>
                {hero.primary.label}
                <ArrowRight aria-hidden="true" className="size-4" />
              </a>
              <a href={hero.secondary.href} className={buttonClass("secondary", "lg")}>
                {hero.secondary.label}
              </a>
            </div>
            <dl className="mt-10 grid grid-cols-3 gap-4 border-t border-slate-200 pt-6 dark:border-slate-800">
              {hero.stats.map((s) => (
                <div key={s.label}>
                  <dt className="text-sm text-slate-600 dark:text-slate-400">{s.label}</dt>
                  <dd className="order-first text-2xl font-bold text-slate-900 dark:text-white">{s.value}</dd>
                </div>
              ))}
            </dl>
          </div>
          <Image
            src={hero.image.src}
            alt={hero.image.alt}
            width={hero.image.width}
            height={hero.image.height}
            // Lazy, not priority: hidden below lg, where a lazy image is never fetched (an eager one and
            // its preload were, on every phone); above it, it loads after the first paint, which waits for no image.
            className="hidden h-auto w-full rounded-2xl shadow-2xl ring-1 ring-slate-900/5 lg:block dark:ring-white/10"
          />
        </div>
      </section>

      <section aria-labelledby="logos-heading" className="border-y border-slate-200 py-10 dark:border-slate-800">
        <div className="mx-auto max-w-6xl px-4 sm:px-6 lg:px-8">
          <h2 id="logos-heading" className="text-center text-sm font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-400">
            {logoStrip.title}
          </h2>
          <ul className="mt-6 grid grid-cols-2 items-center justify-items-center gap-6 sm:grid-cols-3 lg:grid-cols-6">
            {logoStrip.logos.map((logo) => (
              <li key={logo.alt}>
                <Image src={logo.src} alt={logo.alt} width={LOGO_WIDTH} height={LOGO_HEIGHT} className="h-10 w-auto" />
              </li>
            ))}
          </ul>
        </div>
      </section>

      <Section id="approach" title={approach.title} lead={approach.lead}>
        <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {approach.cards.map((card) => (
            <FeatureCard key={card.title} card={card} />
          ))}
        </div>
      </Section>

      <Section id="flagship" tone="muted">
        <div className="grid items-center gap-10 lg:grid-cols-2 lg:gap-16">
          <div>
            <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase dark:text-brand-300">{flagship.eyebrow}</p>
            <h2 id="flagship-heading" className="mt-3 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
              {flagship.title}
            </h2>
            <p className="mt-4 text-lg text-slate-600 dark:text-slate-300">{flagship.description}</p>
            <CheckList items={flagship.points} className="mt-6" />
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <a href={flagship.explore.href} className={buttonClass("primary", "lg")}>
                {flagship.explore.label}
              </a>
              <ExternalLink href={flagship.demo.href} className={buttonClass("secondary", "lg")}>
                {flagship.demo.label}
              </ExternalLink>
            </div>
          </div>
          <Image
            src={flagship.image.src}
            alt={flagship.image.alt}
            width={flagship.image.width}
            height={flagship.image.height}
            className="h-auto w-full rounded-2xl shadow-xl ring-1 ring-slate-900/5 dark:ring-white/10"
          />
        </div>
      </Section>

      <Section id="packages" title={homePackages.title} lead={homePackages.lead}>
        <div className="grid gap-8 lg:grid-cols-3">
          {homePackages.packages.map((pkg) => (
            <PackageCard
              key={pkg.id}
              pkg={pkg}
              popularLabel={homePackages.popularLabel}
              notIncludedLabel={homePackages.notIncludedLabel}
            />
          ))}
        </div>
      </Section>

      <Section id="testimonials" title={homeTestimonials.title} lead={homeTestimonials.lead} tone="muted">
        <div className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
          {homeTestimonials.items.map((t) => (
            <TestimonialCard key={t.author} testimonial={t} />
          ))}
        </div>
      </Section>

      <CtaBand {...homeCta} />
    </>
  );
}
