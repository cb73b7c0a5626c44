import type { ReactNode } from "react";
import { footer, footerGroups, studio } from "~/content/site";
import { Logo } from "~/components/logo";

/**
 * SiteFooter is static HTML; the copyright line and the theme choice are
 * islands passed in by the layout. The theme choice needs a script: without
 * JavaScript it is not shown (noscript:hidden, @media (scripting: none)).
 * firstScreen: the page is too short to fill a screen, and the footer is
 * part of its first paint (scripts/critical-css.mjs).
 */
export function SiteFooter({ copyright, themeChoice, firstScreen }: { copyright?: ReactNode; themeChoice?: ReactNode; firstScreen?: boolean }) {
  return (
    <footer data-first-screen={firstScreen ? "" : undefined} className="border-t border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-950">
      <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 lg:px-8">
        <div className="grid gap-10 md:grid-cols-[1.5fr_repeat(3,1fr)]">
          <div>
            <a href="/" className="inline-flex items-center gap-2 rounded-md focus-visible:outline-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-300">
              <Logo />
              <span className="text-lg font-bold text-slate-900 dark:text-white">{studio.name}</span>
            </a>
            <p className="mt-4 max-w-sm text-sm text-slate-600 dark:text-slate-400">{footer.blurb}</p>
          </div>
          {footerGroups.map((group) => (
            <nav key={group.title} aria-label={group.title}>
              <h2 className="text-sm font-semibold text-slate-900 dark:text-white">{group.title}</h2>
              <ul className="mt-4 space-y-1">
                {group.links.map((link) => (
                  <li key={link.href}>
                    <a
                      href={link.href}
                      className="inline-block py-1 text-sm text-slate-600 hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-300 dark:text-slate-400 dark:hover:text-brand-200"
                    >
                      {link.label}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          ))}
        </div>
        <div className="mt-12 flex flex-col gap-4 border-t border-slate-200 pt-8 sm:flex-row sm:items-center sm:justify-between dark:border-slate-800">
          <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="copyright">
            {copyright}
          </p>
          <div className="min-h-10 noscript:hidden">{themeChoice}</div>
        </div>
      </div>
    </footer>
  );
}
