import { useState } from "react";
import { cookieBanner } from "~/content/site";
import { buttonClass } from "~/components/ui/button";
import { readConsent, writeConsent, type Consent } from "~/lib/consent";
import { useHydrated } from "~/lib/hydrated";

/**
 * CookieBanner asks once, on a first visit, and never again after a choice.
 * It sits at the end of the page, stuck to the bottom of the viewport, so it
 * takes its own space: scrolling brings every part of the page above it.
 * It is in every prerendered page; consentScript hides it before first paint
 * from a visitor who has chosen, and once running it leaves the page.
 */
export function CookieBanner() {
  const hydrated = useHydrated();
  const [choice, setChoice] = useState<Consent | null>(null);
  if (hydrated && (choice ?? readConsent(window.localStorage)) !== null) return null;

  const decide = (consent: Consent) => {
    writeConsent(window.localStorage, consent);
    setChoice(consent);
  };

  return (
    <section
      data-cookie-banner
      aria-label="Cookie consent"
      className="sticky bottom-0 z-30 border-t border-slate-200 bg-white/95 shadow-[0_-4px_16px_rgba(15,23,42,0.08)] backdrop-blur dark:border-slate-700 dark:bg-slate-900/95"
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-2.5 sm:flex-nowrap sm:items-center sm:gap-6 sm:px-6 lg:px-8">
        <p className="text-sm text-pretty text-slate-700 dark:text-slate-200">
          {cookieBanner.text}{" "}
          <a href={cookieBanner.policyHref} className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300">
            {cookieBanner.policyLabel}
          </a>
        </p>
        <div className="flex shrink-0 gap-2">
          <button type="button" onClick={() => decide("declined")} className={buttonClass("secondary", "sm")}>
            {cookieBanner.decline}
          </button>
          <button type="button" onClick={() => decide("accepted")} className={buttonClass("primary", "sm")}>
            {cookieBanner.accept}
          </button>
        </div>
      </div>
    </section>
  );
}
