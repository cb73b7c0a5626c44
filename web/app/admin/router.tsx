/**
 * The console's own small router: the screen comes from location.pathname
 * (route.ts), links change it with history.pushState, and Back/Forward work
 * through popstate. The console is a handful of screens; no library needed.
 */
import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from "react";

const CHANGE = "console-navigate";

function subscribe(onChange: () => void) {
  window.addEventListener("popstate", onChange);
  window.addEventListener(CHANGE, onChange);
  return () => {
    window.removeEventListener("popstate", onChange);
    window.removeEventListener(CHANGE, onChange);
  };
}

const snapshot = () => location.pathname + location.search;

/** useLocation is the current path and query; components re-render when it changes. */
export function useLocation(): { pathname: string; search: string } {
  const href = useSyncExternalStore(subscribe, snapshot, () => "/admin");
  const u = new URL(href, "http://console");
  return { pathname: u.pathname, search: u.search };
}

/** navigate goes to a console URL without a document load; replace keeps the history entry (typing in a search box). */
export function navigate(to: string, { replace = false } = {}): void {
  if (to === snapshot()) return;
  if (replace) history.replaceState(null, "", to);
  else history.pushState(null, "", to);
  window.dispatchEvent(new Event(CHANGE));
}

/** ConsoleLink is an <a href> that navigates within the console on a plain click (a new tab still opens with Ctrl/Cmd). */
export function ConsoleLink({ href, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const click = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(href);
  };
  return <a href={href} onClick={click} {...rest} />;
}
