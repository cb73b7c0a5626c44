/** The cookie banner's remembered choice, in localStorage. */

export type Consent = "accepted" | "declined";
export const CONSENT_STORAGE_KEY = "cookie-consent";

export function readConsent(storage: Pick<Storage, "getItem"> | undefined): Consent | null {
  try {
    const v = storage?.getItem(CONSENT_STORAGE_KEY);
    return v === "accepted" || v === "declined" ? v : null;
  } catch {
    return null;
  }
}

export function writeConsent(storage: Pick<Storage, "setItem"> | undefined, consent: Consent): void {
  try {
    storage?.setItem(CONSENT_STORAGE_KEY, consent);
  } catch {
    // Storage refused (private mode): the choice holds for this page view only.
  }
}

/**
 * The attribute consentScript puts on <html> when a choice is stored, its value the choice: the stylesheet
 * then hides the banner, and a page declined is not counted (scripts/critical-css.mjs, SEEN_RULE).
 */
export const CONSENT_MADE_ATTRIBUTE = "data-cookie-consent";

/**
 * consentScript runs in <head> before first paint: the banner is in every
 * prerendered page, and a visitor who has already chosen must never see it
 * (the banner's island hydrates only when used). readConsent in a few bytes.
 */
export const consentScript = `(function(){try{var v=localStorage.getItem(${JSON.stringify(CONSENT_STORAGE_KEY)});if(v==="accepted"||v==="declined")document.documentElement.setAttribute(${JSON.stringify(CONSENT_MADE_ATTRIBUTE)},v)}catch(_){}})()`;
