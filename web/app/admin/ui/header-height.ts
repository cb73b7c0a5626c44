import { useCallback } from "react";

/**
 * useHeaderHeight keeps the console's sticky header's height in the
 * document's --console-header (app.css), which sets the scroll padding: what
 * gets focus or is scrolled to stops below the header however many rows it
 * wraps to (a long open count, a narrow screen; WCAG 2.4.11). It returns the
 * header's ref.
 */
export function useHeaderHeight() {
  return useCallback((header: HTMLElement | null) => {
    // Without ResizeObserver (jsdom in unit tests) app.css's 7rem stands.
    if (!header || typeof ResizeObserver === "undefined") return;
    const root = document.documentElement;
    const resize = new ResizeObserver(() => root.style.setProperty("--console-header", `${header.offsetHeight}px`));
    resize.observe(header);
    return () => {
      resize.disconnect();
      root.style.removeProperty("--console-header");
    };
  }, []);
}
