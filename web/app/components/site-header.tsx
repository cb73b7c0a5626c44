import type { ReactNode } from "react";
import { Search } from "lucide-react";
import { getStarted, headerLabels, mainNav, sectionSwitch, studio } from "~/content/site";
import { buttonClass, headerIconButtonClass, headerIconSlot } from "~/components/ui/button";
import { Logo } from "~/components/logo";
import { cn } from "~/lib/cn";

/** navLinkClass styles a main navigation link; the current page's is highlighted. */
export const navLinkClass = (current: boolean) =>
  cn(
    "rounded-md px-3 py-2 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-300",
    current
      ? "bg-brand-50 text-brand-700 dark:bg-brand-500/15 dark:text-brand-200"
      : "text-slate-700 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white",
  );

/** isCurrent: the link whose route equals the current path is highlighted (docs/requirements.md#shared-layout). */
export const isCurrent = (href: string, pathname: string) => href === (pathname.replace(/\/$/, "") || "/");

/** MainNavItems are the main navigation's list items; the current page's link has aria-current="page". */
export function MainNavItems({ pathname, linkClass }: { pathname: string; linkClass?: string }) {
  return mainNav.map((item) => {
    const current = isCurrent(item.href, pathname);
    return (
      <li key={item.href}>
        <a href={item.href} aria-current={current ? "page" : undefined} className={cn(navLinkClass(current), linkClass)}>
          {item.label}
        </a>
      </li>
    );
  });
}

/**
 * SiteHeader: logo, main navigation, search, theme toggle, Get Started; under
 * 768 px a section switch and a menu. It is static HTML: the theme toggle and
 * the mobile menu are islands passed in by the layout, and the search button
 * is picked up by the search island (and, before that, by the early-input
 * script) through its data-search-trigger attribute. Without JavaScript the
 * theme toggle, which could not work, is not shown (noscript:hidden: only
 * under @media (scripting: none), so the slot keeps its size for everyone
 * else). Under 640 px the row is tighter, so that it fits 320 px (400 %
 * zoom) and text spacing without scrolling sideways (WCAG 1.4.10, 1.4.12).
 */
export function SiteHeader({ pathname, themeToggle, menu }: { pathname: string; themeToggle?: ReactNode; menu?: ReactNode }) {
  const inProducts = pathname.includes("/products");
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-brand-600 focus:px-4 focus:py-2 focus:text-white"
      >
        {headerLabels.skipToContent}
      </a>
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-1.5 px-3 sm:px-6 lg:px-8">
        <a href="/" aria-label={headerLabels.home} className="flex shrink-0 items-center gap-2 rounded-md focus-visible:outline-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-300">
          <Logo />
          <span className="hidden text-lg font-bold tracking-tight text-slate-900 sm:inline dark:text-white">{studio.name}</span>
        </a>

        <nav aria-label={headerLabels.mainNav} className="hidden md:block">
          <ul className="flex items-center gap-1">
            <MainNavItems pathname={pathname} />
          </ul>
        </nav>

        <nav aria-label={headerLabels.sectionSwitch} className="md:hidden">
          <ul className="flex rounded-lg bg-slate-100 p-0.5 dark:bg-slate-800">
            {[sectionSwitch.studio, sectionSwitch.products].map((item) => {
              const active = item === sectionSwitch.products ? inProducts : !inProducts;
              return (
                <li key={item.href}>
                  <a
                    href={item.href}
                    aria-current={active ? "true" : undefined}
                    className={cn(
                      "block rounded-md px-2 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-300",
                      active
                        ? "bg-white text-slate-900 shadow-sm dark:bg-slate-950 dark:text-white"
                        : "text-slate-600 dark:text-slate-300",
                    )}
                  >
                    {item.label}
                  </a>
                </li>
              );
            })}
          </ul>
        </nav>

        <div className="ml-auto flex items-center">
          <button
            type="button"
            aria-label={headerLabels.search}
            aria-haspopup="dialog"
            aria-keyshortcuts="Control+K Meta+K /"
            data-search-trigger
            className={headerIconButtonClass}
          >
            <Search aria-hidden="true" className="size-5" />
          </button>
          <span className={cn(headerIconSlot, "items-center justify-center noscript:hidden")} data-testid="theme-toggle-slot">
            {themeToggle}
          </span>
          <span className="ml-2 hidden md:block">
            <a href={getStarted.href} className={buttonClass("primary", "sm")}>
              {getStarted.label}
            </a>
          </span>
          <span className={cn(headerIconSlot, "md:hidden")}>{menu}</span>
        </div>
      </div>
    </header>
  );
}
