import { Moon, Sun } from "lucide-react";
import { headerLabels } from "~/content/site";
import { setThemeChoice, useTheme } from "~/lib/theme-store";

/**
 * ThemeToggle switches between light and dark. It renders only after
 * hydration (the prerendered page cannot know the visitor's theme), into a
 * box of the same size in the header, so nothing shifts when it appears.
 */
export function ThemeToggle() {
  const state = useTheme();
  return (
    state && (
        <button
          type="button"
          onClick={() => setThemeChoice(state.theme === "dark" ? "light" : "dark")}
          aria-label={state.theme === "dark" ? headerLabels.themeToLight : headerLabels.themeToDark}
          className="inline-flex size-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-slate-200 dark:hover:bg-slate-800"
        >
          {state.theme === "dark" ? <Sun aria-hidden="true" className="size-5" /> : <Moon aria-hidden="true" className="size-5" />}
        </button>
    )
  );
}
