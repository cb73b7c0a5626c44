import { Moon, Sun } from "lucide-react";
import { headerLabels } from "~/content/site";
import { headerIconButtonClass } from "~/components/ui/button";
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
      className={headerIconButtonClass}
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
