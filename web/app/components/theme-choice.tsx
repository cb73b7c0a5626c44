import { useLayoutEffect, useRef } from "react";
import { themeChoiceLabels } from "~/content/site";
import type { ThemeChoice } from "~/lib/theme";
import { setThemeChoice, useTheme } from "~/lib/theme-store";
import { cn } from "~/lib/cn";

// Words only: the group is in every page's HTML, whose first paint must fit one round trip.
const options = [
  { value: "light", label: themeChoiceLabels.light },
  { value: "dark", label: themeChoiceLabels.dark },
  { value: "system", label: themeChoiceLabels.system },
] as const satisfies ReadonlyArray<{ value: ThemeChoice; label: string }>;

/**
 * ThemeChoice offers light, dark or system (follows the device), as a radio
 * group. Its radios are in the page's HTML, none checked until the island
 * knows the stored choice, so that Tab reaches them before the island wakes
 * (it wakes once scrolled to, and a keyboard's Tab comes first). A radio
 * chosen before then is the visitor's choice once it runs.
 */
export function ThemeChoicePicker() {
  const state = useTheme();
  const group = useRef<HTMLFieldSetElement>(null);
  useLayoutEffect(() => {
    const early = group.current?.querySelector<HTMLInputElement>("input:checked");
    if (early && early.checked !== early.defaultChecked) setThemeChoice(early.value as ThemeChoice);
  }, []);
  return (
    <fieldset ref={group} className="min-h-10">
      <legend className="sr-only">{themeChoiceLabels.legend}</legend>
      <div className="inline-flex rounded-lg border border-slate-200 p-0.5 dark:border-slate-700">
        {options.map(({ value, label }) => (
          <label
            key={value}
            className={cn(
              "flex cursor-pointer items-center rounded-md px-2.5 py-1.5 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600 dark:has-[:focus-visible]:outline-brand-300",
              state?.choice === value
                ? "bg-slate-200 text-slate-900 dark:bg-slate-700 dark:text-white"
                : "text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white",
            )}
          >
            <input
              type="radio"
              name="theme-choice"
              value={value}
              checked={state?.choice === value}
              onChange={() => setThemeChoice(value)}
              className="sr-only"
            />
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
