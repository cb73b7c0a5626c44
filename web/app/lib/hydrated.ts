import { useEffect, useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/** useHydrated is false while prerendering and during hydration, true after. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/** The attribute <html> carries once React has hydrated the page. */
export const HYDRATED_ATTRIBUTE = "data-hydrated";

/**
 * holdFormsScript runs in <head>. The forms post JSON through JavaScript, and
 * a page's JavaScript starts after its first paint; a form submitted before
 * that would be submitted natively, reloading the page with its fields in the
 * URL and losing them. Until <html> carries HYDRATED_ATTRIBUTE, a submit is
 * held back (the visitor presses again a moment later; nothing is lost).
 */
export const holdFormsScript = `document.addEventListener("submit",function(e){document.documentElement.hasAttribute("${HYDRATED_ATTRIBUTE}")||e.preventDefault()},true)`;

/** useMarkHydrated puts HYDRATED_ATTRIBUTE on <html> after hydration. */
export function useMarkHydrated(): void {
  useEffect(() => document.documentElement.setAttribute(HYDRATED_ATTRIBUTE, ""), []);
}
