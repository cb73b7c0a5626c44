import type { HTMLAttributes } from "react";
import type { BadgeTone } from "~/content/types";
import { cn } from "~/lib/cn";

/**
 * Colour pairs with a contrast well above 4.5:1 (WCAG AA) in both themes (text on the
 * badge's own background), so the badge reads the same on any card.
 */
const tones: Record<BadgeTone, string> = {
  green: "bg-emerald-100 text-emerald-800 ring-emerald-700/20 dark:bg-emerald-950 dark:text-emerald-200 dark:ring-emerald-400/30",
  yellow: "bg-amber-100 text-amber-900 ring-amber-700/25 dark:bg-amber-950 dark:text-amber-200 dark:ring-amber-400/30",
  blue: "bg-blue-100 text-blue-800 ring-blue-700/20 dark:bg-blue-950 dark:text-blue-200 dark:ring-blue-400/30",
  violet: "bg-violet-100 text-violet-800 ring-violet-700/20 dark:bg-violet-950 dark:text-violet-200 dark:ring-violet-400/30",
};

/** Badge is a small status label. Extra props (tabIndex, aria-describedby) go on the element. */
export function Badge({ tone, className, children, ...rest }: { tone: BadgeTone } & HTMLAttributes<HTMLSpanElement>) {
  return (
    <span
      {...rest}
      data-tone={tone}
      className={cn(
        "inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset",
        rest.tabIndex !== undefined &&
          "cursor-help focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-300",
        tones[tone],
        className,
      )}
    >
      {children}
    </span>
  );
}
