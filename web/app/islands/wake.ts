/**
 * Waking an island: an island placed with client:interaction={{ wake: NAME }}
 * also hydrates when something else on the page asks for it by NAME (a toast
 * raised by a form asks the Toaster; the early-search script asks the search).
 * The names asked for are kept, so an island whose directive starts after the
 * asking still wakes.
 */
export const WAKE_EVENT = "island-wake";

declare global {
  interface Window {
    __wakes?: Set<string>;
  }
}

export function wakeIsland(name: string): void {
  if (typeof window === "undefined") return;
  (window.__wakes ??= new Set()).add(name);
  document.dispatchEvent(new CustomEvent(WAKE_EVENT, { detail: name }));
}

/** wakeIslandScript is wakeIsland as a statement for the inline scripts of the page's head. */
export const wakeIslandScript = (name: string) =>
  `(window.__wakes||(window.__wakes=new Set)).add(${JSON.stringify(name)});document.dispatchEvent(new CustomEvent(${JSON.stringify(WAKE_EVENT)},{detail:${JSON.stringify(name)}}))`;

export function wasWoken(name: string): boolean {
  return window.__wakes?.has(name) ?? false;
}
