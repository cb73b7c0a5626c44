import { resourceTabs, resourceTabsLabel } from "~/content/resources";
import { cn } from "~/lib/cn";

/**
 * ResourceTabs is the tab bar of the four resource pages; the current one
 * (`current`, its href) has aria-current="page". It follows their hero, in
 * their first screen.
 */
export function ResourceTabs({ current }: { current: string }) {
  return (
    <nav aria-label={resourceTabsLabel} data-first-screen="" className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-950">
      <ul className="mx-auto flex max-w-6xl gap-1 overflow-x-auto px-2 sm:justify-center sm:gap-2 sm:px-6 lg:px-8">
        {resourceTabs.map((tab) => (
          <li key={tab.href} className="shrink-0">
            <a
              href={tab.href}
              aria-current={tab.href === current ? "page" : undefined}
              className={cn(
                  "-mb-px inline-flex h-12 items-center border-b-2 px-3 text-sm font-medium whitespace-nowrap transition-colors focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-300 sm:px-4",
                  tab.href === current
                    ? "border-brand-600 text-brand-700 dark:border-brand-400 dark:text-brand-200"
                    : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900 dark:text-slate-400 dark:hover:border-slate-600 dark:hover:text-white",
                )}
            >
              {tab.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
