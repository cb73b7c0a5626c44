import { Link } from "react-router";
import { footer, footerGroups, studio } from "~/content/site";
import { Logo } from "~/components/logo";
import { ThemeChoicePicker } from "~/components/theme-choice";
import { useHydrated } from "~/lib/hydrated";

/** The year the site was built; the footer shows the visitor's current year once hydrated. */
declare const __BUILD_YEAR__: number;

/** useCopyrightYear is the current year, correct even when the build is older. */
function useCopyrightYear(): number {
  const hydrated = useHydrated();
  return hydrated ? new Date().getFullYear() : __BUILD_YEAR__;
}

export function SiteFooter() {
  const year = useCopyrightYear();
  return (
    <footer className="border-t border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-950">
      <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 lg:px-8">
        <div className="grid gap-10 md:grid-cols-[1.5fr_repeat(3,1fr)]">
          <div>
            <Link to="/" className="inline-flex items-center gap-2 rounded-md focus-visible:outline-2 focus-visible:outline-brand-600">
              <Logo />
              <span className="text-lg font-bold text-slate-900 dark:text-white">{studio.name}</span>
            </Link>
            <p className="mt-4 max-w-sm text-sm text-slate-600 dark:text-slate-400">{footer.blurb}</p>
          </div>
          {footerGroups.map((group) => (
            <nav key={group.title} aria-label={group.title}>
              <h2 className="text-sm font-semibold text-slate-900 dark:text-white">{group.title}</h2>
              <ul className="mt-4 space-y-1">
                {group.links.map((link) => (
                  <li key={link.href}>
                    <Link
                      to={link.href}
                      className="inline-block py-1 text-sm text-slate-600 hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-slate-400 dark:hover:text-brand-200"
                    >
                      {link.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          ))}
        </div>
        <div className="mt-12 flex flex-col gap-4 border-t border-slate-200 pt-8 sm:flex-row sm:items-center sm:justify-between dark:border-slate-800">
          <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="copyright">
            {footer.copyright(year)}
          </p>
          <ThemeChoicePicker />
        </div>
      </div>
    </footer>
  );
}
