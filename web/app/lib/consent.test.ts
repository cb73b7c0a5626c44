import { afterEach, describe, expect, it } from "vitest";
import { CONSENT_MADE_ATTRIBUTE, CONSENT_STORAGE_KEY, consentScript, readConsent } from "./consent";

describe("consentScript (runs before first paint)", () => {
  afterEach(() => {
    localStorage.clear();
    document.documentElement.removeAttribute(CONSENT_MADE_ATTRIBUTE);
  });

  it.each([null, "accepted", "declined", "bogus", ""])("agrees with readConsent for stored=%s", (stored) => {
    if (stored !== null) localStorage.setItem(CONSENT_STORAGE_KEY, stored);
    new Function(consentScript)();
    // The value is the choice: a page declined is not counted (scripts/critical-css.mjs, SEEN_RULE).
    expect(document.documentElement.getAttribute(CONSENT_MADE_ATTRIBUTE)).toBe(readConsent(localStorage));
  });
});
