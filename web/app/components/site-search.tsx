/**
 * The site-wide search: opens from the header's search button or Ctrl/Cmd+K
 * (no single-character shortcut: a bare key would fire while a visitor types
 * or speaks, WCAG 2.1.4). The dialog and its index are a
 * separate chunk, fetched with import() on first use (or earlier, when the
 * pointer or focus reaches the search button), so no page loads them up front.
 * SiteSearch is the island every page carries; an opening asked for before it
 * started is taken from the early-search script (lib/early-search.ts).
 */
import { Suspense, lazy, useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { earlySearch } from "~/lib/early-search";

const loadSearchDialog = () => import("~/components/search-dialog");
const SearchDialog = lazy(loadSearchDialog);

const TRIGGER_SELECTOR = "[data-search-trigger]";

/** markTriggersBusy shows on the search buttons that an opening is under way (the dialog's chunk may still be loading). */
function markTriggersBusy(busy: boolean) {
  for (const button of document.querySelectorAll(TRIGGER_SELECTOR)) {
    if (busy) button.setAttribute("aria-busy", "true");
    else button.removeAttribute("aria-busy");
  }
}

/** DialogShown clears the busy state once the dialog's chunk has loaded and the dialog is on screen. */
function DialogShown() {
  useEffect(() => markTriggersBusy(false), []);
  return null;
}

/** isSearchShortcut: Ctrl+K or Cmd+K, anywhere; it has a modifier, so typing never sets it off. */
export function isSearchShortcut(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.isComposing) return false;
  return event.key.toLowerCase() === "k" && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey;
}

/**
 * useSiteSearch owns the dialog's open state. It returns the handlers for the
 * header's button and the element to render (nothing until first opened).
 */
export function useSiteSearch(): { open: () => void; preload: () => void; element: ReactNode } {
  // Each opening mounts a fresh dialog (its key); null while closed.
  const [openId, setOpenId] = useState<number | null>(null);
  const openings = useRef(0);
  // Read by the shortcut listener, which is registered once: current even between renders.
  const openRef = useRef(false);
  const returnFocus = useRef<HTMLElement | null>(null);
  const pendingFocus = useRef<HTMLElement | null>(null);

  const preload = useCallback(() => {
    void loadSearchDialog();
  }, []);

  const open = useCallback(() => {
    if (openRef.current) return;
    openRef.current = true;
    markTriggersBusy(true);
    const focused = document.activeElement;
    returnFocus.current = focused instanceof HTMLElement && focused !== document.body ? focused : null;
    setOpenId(++openings.current);
  }, []);

  const onClose = useCallback(() => {
    if (!openRef.current) return;
    openRef.current = false;
    pendingFocus.current = returnFocus.current?.isConnected ? returnFocus.current : document.querySelector<HTMLElement>(TRIGGER_SELECTOR);
    returnFocus.current = null;
    setOpenId(null);
  }, []);

  // Focus goes back once the dialog has left the page (while it is modal, the rest cannot take focus).
  useEffect(() => {
    if (openId !== null || !pendingFocus.current) return;
    pendingFocus.current.focus();
    pendingFocus.current = null;
  }, [openId]);

  // The header's button (static HTML) is found by its attribute.
  useEffect(() => {
    const trigger = (event: Event) => (event.target as Element | null)?.closest?.(TRIGGER_SELECTOR);
    const onClick = (event: MouseEvent) => {
      if (trigger(event)) open();
    };
    const onIntent = (event: Event) => {
      if (trigger(event)) preload();
    };
    document.addEventListener("click", onClick);
    document.addEventListener("pointerover", onIntent);
    document.addEventListener("focusin", onIntent);
    const early = earlySearch();
    if (early) {
      early.onopen = open;
      if (early.open) open();
    }
    return () => {
      document.removeEventListener("click", onClick);
      document.removeEventListener("pointerover", onIntent);
      document.removeEventListener("focusin", onIntent);
      if (early) early.onopen = undefined;
    };
  }, [open, preload]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (openRef.current || !isSearchShortcut(event)) return;
      event.preventDefault();
      open();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [open]);

  const element =
    openId === null ? null : (
      <Suspense fallback={null}>
        <SearchDialog key={openId} onClose={onClose} />
        <DialogShown />
      </Suspense>
    );

  return { open, preload, element };
}

/** SiteSearch is the search island: it renders nothing until the search is opened. */
export function SiteSearch() {
  return useSiteSearch().element;
}
