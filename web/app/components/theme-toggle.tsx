import { Moon, Sun } from "lucide-react";
import { headerLabels } from "~/content/site";
import { setThemeChoice } from "~/lib/theme-store";

/**
 * ThemeToggle switches between light and dark. The prerendered button cannot
 * know the visitor's theme, so it carries both faces and the stylesheet shows
 * the one for the theme in effect (the hidden face is out of the
 * accessibility tree too, so the button's name is right before any script
 * runs); a click reads the theme from the page.
 */
export function ThemeToggle() {
  const toggle = () => setThemeChoice(document.documentElement.classList.contains("dark") ? "light" : "dark");
  return (
    <button
      type="button"
      onClick={toggle}
      className="inline-flex size-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-300 dark:text-slate-200 dark:hover:bg-slate-800"
    >
      <span className="contents dark:hidden">
        <Moon aria-hidden="true" className="size-5" />
        <span className="sr-only">{headerLabels.themeToDark}</span>
      </span>
      <span className="hidden dark:contents">
        <Sun aria-hidden="true" className="size-5" />
        <span className="sr-only">{headerLabels.themeToLight}</span>
      </span>
    </button>
  );
}
