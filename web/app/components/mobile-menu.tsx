import { useEffect, useId, useRef, useState } from "react";
import { Menu, X } from "lucide-react";
import { getStarted, headerLabels } from "~/content/site";
import { buttonClass, headerIconButtonClass } from "~/components/ui/button";
import { MainNavItems } from "~/components/site-header";

/**
 * MobileMenu is the header's menu under 768 px (an island): a button that
 * opens the main navigation below the header bar, closed by the button, by
 * Escape (focus returns to the button when it was in the menu), by focus or
 * a press moving elsewhere (an open menu would cover what gets focus: WCAG
 * 2.4.11), or by going to another page (each page is a new document, so it
 * starts closed).
 */
export function MobileMenu({ pathname }: { pathname: string }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const inside = (node: EventTarget | null) => node instanceof Node && (menu.current?.contains(node) || button.current?.contains(node));
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpen(false);
      if (menu.current?.contains(document.activeElement)) button.current?.focus();
    };
    const onElsewhere = (e: Event) => {
      if (!inside(e.target)) setOpen(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("focusin", onElsewhere);
    document.addEventListener("pointerdown", onElsewhere);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("focusin", onElsewhere);
      document.removeEventListener("pointerdown", onElsewhere);
    };
  }, [open]);

  return (
    <>
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={open ? headerLabels.closeMenu : headerLabels.openMenu}
        onClick={() => setOpen((o) => !o)}
        className={headerIconButtonClass}
      >
        {open ? <X aria-hidden="true" className="size-5" /> : <Menu aria-hidden="true" className="size-5" />}
      </button>
      <div
        ref={menu}
        id={menuId}
        hidden={!open}
        className="absolute inset-x-0 top-full border-t border-b border-slate-200 bg-white shadow-lg md:hidden dark:border-slate-800 dark:bg-slate-950"
      >
        <nav aria-label={headerLabels.mainNav} className="mx-auto max-w-6xl px-4 py-3">
          <ul className="flex flex-col gap-1">
            <MainNavItems pathname={pathname} linkClass="block text-base" />
          </ul>
          <a href={getStarted.href} className={buttonClass("primary", "md", "mt-3 w-full")}>
            {getStarted.label}
          </a>
        </nav>
      </div>
    </>
  );
}
