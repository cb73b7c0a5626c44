import { useEffect, useId, useRef, useState } from "react";
import { Menu, X } from "lucide-react";
import { getStarted, headerLabels } from "~/content/site";
import { buttonClass } from "~/components/ui/button";
import { MainNavItems } from "~/components/site-header";

/**
 * MobileMenu is the header's menu under 768 px (an island): a button that
 * opens the main navigation below the header bar, closed by the button, by
 * Escape (focus returns to the button) or by going to another page (each
 * page is a new document, so it starts closed).
 */
export function MobileMenu({ pathname }: { pathname: string }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        setOpen(false);
        button.current?.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
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
        className="inline-flex size-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-300 dark:text-slate-200 dark:hover:bg-slate-800"
      >
        {open ? <X aria-hidden="true" className="size-5" /> : <Menu aria-hidden="true" className="size-5" />}
      </button>
      <div
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
