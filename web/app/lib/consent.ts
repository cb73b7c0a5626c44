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
