/**
 * Each screen of the console names itself in the document title (WCAG
 * 2.4.2), "Inbox | Staff console | Meridian Studio": the name is the first
 * thing a screen reader reads of a tab, and what the tab and the history show.
 * Only the screens themselves (the leaves) set it, so a parent never
 * overwrites its child's name.
 */
import { useEffect } from "react";
import { consoleTitle } from "~/content/console";

/** useDocumentTitle names the current screen (none: the console's own title) while it is shown. */
export function useDocumentTitle(screen: string | undefined): void {
  useEffect(() => {
    document.title = consoleTitle(screen);
  }, [screen]);
}
