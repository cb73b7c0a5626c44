/**
 * Early search: the header's search button and Ctrl/Cmd+K must open the
 * search at any moment after the first paint, before the search island has
 * loaded. earlySearchScript, inline in every page's <head>, records such an
 * opening and the keys typed after it, and wakes the search island (which
 * hydrates only then, or when the pointer or focus reaches the button); the island opens the dialog when it starts (or at once, if it is already running when the opening
 * happens: onopen), and the dialog takes the typed text and a pending Enter
 * (takeEarlySearch), after which the script stands down. Meanwhile the
 * search buttons carry aria-busy, so a visitor sees the opening was taken.
 */
import { wakeIslandScript } from "~/islands/wake";

/** The search island hydrates when the search is first opened (islands/wake.ts). */
export const SEARCH_WAKE = "search";

export type EarlySearch = {
  /** An opening was asked for and the dialog has not taken it yet. */
  open: boolean;
  /** What was typed after the opening. */
  keys: string;
  /** Enter was pressed after the opening: open the first result. */
  enter: boolean;
  /** The dialog has taken over; the script does nothing more. */
  ready: boolean;
  /** Set by the search island: called when an opening happens. */
  onopen?: () => void;
};

declare global {
  interface Window {
    __earlySearch?: EarlySearch;
  }
}

export const earlySearchScript = `(function(){var s=window.__earlySearch={open:false,keys:"",enter:false,ready:false},w=function(){${wakeIslandScript(SEARCH_WAKE)}},r=function(e){var t=e.target;return t&&t.closest&&t.closest("[data-search-trigger]")};function busy(v){document.querySelectorAll("[data-search-trigger]").forEach(function(b){v?b.setAttribute("aria-busy","true"):b.removeAttribute("aria-busy")})}function go(e){e.preventDefault();s.open=true;s.keys="";s.enter=false;busy(true);if(s.onopen)s.onopen();w()}document.addEventListener("click",function(e){if(!s.ready&&r(e))go(e)},true);["pointerover","focusin"].forEach(function(n){document.addEventListener(n,function(e){if(r(e))w()},true)});document.addEventListener("keydown",function(e){if(s.ready||e.isComposing)return;var k=e.key,m=e.ctrlKey||e.metaKey;if(!s.open){if((k==="k"||k==="K")&&m&&!e.altKey&&!e.shiftKey)go(e);return}if(k==="Escape"){s.open=false;s.keys="";busy(false);return}if(k==="Enter")s.enter=true;else if(k==="Backspace")s.keys=s.keys.slice(0,-1);else if(k.length===1&&!m&&!e.altKey)s.keys+=k;else return;e.preventDefault()},true)})()`;

/** earlySearch is the state the inline script keeps (undefined in tests without it). */
export function earlySearch(): EarlySearch | undefined {
  return typeof window === "undefined" ? undefined : window.__earlySearch;
}

/** takeEarlySearch hands what was typed before the dialog was ready to the dialog, and stands the script down. */
export function takeEarlySearch(): { keys: string; enter: boolean } {
  const s = earlySearch();
  if (!s) return { keys: "", enter: false };
  const taken = s.open ? { keys: s.keys, enter: s.enter } : { keys: "", enter: false };
  s.ready = true;
  s.open = false;
  s.keys = "";
  s.enter = false;
  return taken;
}
