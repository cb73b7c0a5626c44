import { useRef, useState, type KeyboardEvent } from "react";
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
 * While it shows, the page keeps what gets focus clear of it (app.css,
 * scroll-padding-bottom: WCAG 2.4.11). Escape closes it for this page
 * without a choice. When it goes, a keyboard's focus goes to what precedes
 * it (the footer's last control), where a Tab had brought it from.
 */
export function CookieBanner() {
  const hydrated = useHydrated();
  const [choice, setChoice] = useState<Consent | null>(null);
  const [closed, setClosed] = useState(false);
  const self = useRef<HTMLElement>(null);
  if (closed || (hydrated && (choice ?? readConsent(window.localStorage)) !== null)) return null;

  // A keyboard's focus is handed back before the banner leaves, to what precedes it (a click's is
  // not: the page would jump to its end).
  const handBackFocus = () => {
    const active = document.activeElement;
    if (self.current?.contains(active) && active?.matches(":focus-visible")) focusableBefore(self.current)?.focus();
  };
  const decide = (consent: Consent) => {
    writeConsent(window.localStorage, consent);
    handBackFocus();
    setChoice(consent);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key !== "Escape") return;
    handBackFocus();
    setClosed(true);
  };

  return (
    <section
      ref={self}
      data-cookie-banner
      aria-label="Cookie consent"
      onKeyDown={onKeyDown}
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

const FOCUSABLE = 'a[href],button:not([disabled]),input:not([disabled]):not([type="hidden"]),select:not([disabled]),textarea:not([disabled]),[tabindex]:not([tabindex="-1"])';

/** focusableBefore is the last focusable element that precedes el in the document, or <main>. */
function focusableBefore(el: HTMLElement): HTMLElement | null {
  const before = [...document.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (c) => c.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING && c.getClientRects().length > 0,
  );
  return before.at(-1) ?? document.querySelector("main");
}
