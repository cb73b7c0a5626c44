import { useEffect, useId, useRef, useState } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { Menu, Search, X } from "lucide-react";
import { getStarted, headerLabels, mainNav, sectionSwitch, studio } from "~/content/site";
import { buttonClass } from "~/components/ui/button";
import { ThemeToggle } from "~/components/theme-toggle";
import { Logo } from "~/components/logo";
import { cn } from "~/lib/cn";

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    "rounded-md px-3 py-2 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-brand-600",
    isActive
      ? "bg-brand-50 text-brand-700 dark:bg-brand-500/15 dark:text-brand-200"
      : "text-slate-700 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white",
  );

/** SiteHeader: logo, main navigation, search, theme toggle, Get Started; under 768 px a section switch and a menu. */
export function SiteHeader({ onSearch, onSearchIntent }: { onSearch?: () => void; onSearchIntent?: () => void }) {
  const { pathname } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const menuButton = useRef<HTMLButtonElement>(null);
  const inProducts = pathname.includes("/products");

  useEffect(() => setMenuOpen(false), [pathname]);

  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        setMenuOpen(false);
        menuButton.current?.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [menuOpen]);

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-brand-600 focus:px-4 focus:py-2 focus:text-white"
      >
        {headerLabels.skipToContent}
      </a>
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-2 px-4 sm:px-6 lg:px-8">
        <Link to="/" aria-label={headerLabels.home} className="mr-2 flex shrink-0 items-center gap-2 rounded-md focus-visible:outline-2 focus-visible:outline-brand-600">
          <Logo />
          <span className="hidden text-lg font-bold tracking-tight text-slate-900 sm:inline dark:text-white">{studio.name}</span>
        </Link>

        <nav aria-label={headerLabels.mainNav} className="hidden md:block">
          <ul className="flex items-center gap-1">
            {mainNav.map((item) => (
              <li key={item.href}>
                <NavLink to={item.href} end className={navLinkClass}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>

        <nav aria-label={headerLabels.sectionSwitch} className="md:hidden">
          <ul className="flex rounded-lg bg-slate-100 p-0.5 dark:bg-slate-800">
            {[sectionSwitch.studio, sectionSwitch.products].map((item) => {
              const active = item === sectionSwitch.products ? inProducts : !inProducts;
              return (
                <li key={item.href}>
                  <Link
                    to={item.href}
                    aria-current={active ? "true" : undefined}
                    className={cn(
                      "block rounded-md px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-600",
                      active
                        ? "bg-white text-slate-900 shadow-sm dark:bg-slate-950 dark:text-white"
                        : "text-slate-600 dark:text-slate-300",
                    )}
                  >
                    {item.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>

        <div className="ml-auto flex items-center gap-1">
          <button
            type="button"
            onClick={onSearch}
            onPointerEnter={onSearchIntent}
            onFocus={onSearchIntent}
            aria-label={headerLabels.search}
            aria-haspopup="dialog"
            aria-keyshortcuts="Control+K Meta+K /"
            data-search-trigger
            className="inline-flex size-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-slate-200 dark:hover:bg-slate-800"
          >
            <Search aria-hidden="true" className="size-5" />
          </button>
          <ThemeToggle />
          <span className="ml-2 hidden md:block">
            <Link to={getStarted.href} className={buttonClass("primary", "sm")}>
              {getStarted.label}
            </Link>
          </span>
          <button
            ref={menuButton}
            type="button"
            aria-expanded={menuOpen}
            aria-controls={menuId}
            aria-label={menuOpen ? headerLabels.closeMenu : headerLabels.openMenu}
            onClick={() => setMenuOpen((open) => !open)}
            className="inline-flex size-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600 md:hidden dark:text-slate-200 dark:hover:bg-slate-800"
          >
            {menuOpen ? <X aria-hidden="true" className="size-5" /> : <Menu aria-hidden="true" className="size-5" />}
          </button>
        </div>
      </div>

      <div id={menuId} hidden={!menuOpen} className="border-t border-slate-200 md:hidden dark:border-slate-800">
        <nav aria-label={headerLabels.mainNav} className="mx-auto max-w-6xl px-4 py-3">
          <ul className="flex flex-col gap-1">
            {mainNav.map((item) => (
              <li key={item.href}>
                <NavLink to={item.href} end className={(s) => cn(navLinkClass(s), "block text-base")}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
          <Link to={getStarted.href} className={buttonClass("primary", "md", "mt-3 w-full")}>
            {getStarted.label}
          </Link>
        </nav>
      </div>
    </header>
  );
}
