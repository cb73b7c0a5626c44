import { cn } from "~/lib/cn";

export type ButtonVariant = "primary" | "secondary" | "ghost" | "inverse" | "outline-inverse";
export type ButtonSize = "sm" | "md" | "lg";

const base =
  "inline-flex items-center justify-center gap-2 rounded-lg font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-60 dark:focus-visible:outline-brand-300";

const variants: Record<ButtonVariant, string> = {
  primary: "bg-brand-600 text-white shadow-sm hover:bg-brand-700 dark:hover:bg-brand-700",
  secondary:
    "border border-slate-300 bg-white text-slate-900 hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800",
  ghost: "text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800",
  inverse: "bg-white text-brand-700 shadow-sm hover:bg-brand-50",
  "outline-inverse": "border border-white/70 text-white hover:bg-white/10",
};

const sizes: Record<ButtonSize, string> = {
  sm: "h-9 px-3 text-sm",
  md: "h-11 px-5 text-sm",
  lg: "h-12 px-6 text-base",
};

/** buttonClass styles a button or a link that looks like one. */
export function buttonClass(variant: ButtonVariant = "primary", size: ButtonSize = "md", extra?: string): string {
  return cn(base, variants[variant], sizes[size], extra);
}

/**
 * headerIconButtonClass styles the header's icon buttons (search, theme, menu): 40 px, 36 px under
 * 360 px so that the header row fits 320 px (WCAG 1.4.10); the slots that hold them use headerIconSlot.
 */
export const headerIconButtonClass =
  "inline-flex size-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600 max-[359px]:size-9 dark:focus-visible:outline-brand-300 dark:text-slate-200 dark:hover:bg-slate-800";
export const headerIconSlot = "inline-flex size-10 max-[359px]:size-9";
