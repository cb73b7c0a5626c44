/**
 * Tooltip: a short description of its trigger, shown while the trigger is
 * hovered or has keyboard focus, and hidden again by Escape (WCAG 1.4.13:
 * dismissible without moving the pointer or focus; the tooltip itself can be
 * hovered). The trigger is rendered by the caller, which spreads the given
 * props on it: they make it focusable and point aria-describedby at the
 * tooltip, so screen readers announce the text too.
 */
import { useEffect, useId, useState, type ReactNode } from "react";
import { cn } from "~/lib/cn";

export type TooltipTriggerProps = { "aria-describedby": string; tabIndex: 0 };

export function Tooltip({
  content,
  align = "center",
  children,
}: {
  content: string;
  /** center: centred over the trigger; end: flush with its right edge (for triggers at the end of a row). */
  align?: "center" | "end";
  children: (trigger: TooltipTriggerProps) => ReactNode;
}) {
  const id = useId();
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const open = (hovered || focused) && !dismissed;

  useEffect(() => {
    if (!open) return;
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === "Escape") setDismissed(true);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  return (
    <span
      className="relative inline-flex"
      onMouseEnter={() => {
        setHovered(true);
        setDismissed(false);
      }}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => {
        setFocused(true);
        setDismissed(false);
      }}
      onBlur={() => setFocused(false)}
    >
      {children({ "aria-describedby": id, tabIndex: 0 })}
      <span
        role="tooltip"
        id={id}
        hidden={!open}
        className={cn(
          "absolute bottom-full z-20 mb-2 rounded-md bg-slate-900 px-2.5 py-1.5 text-xs font-medium whitespace-nowrap text-white shadow-lg dark:bg-white dark:text-slate-900",
          align === "center" ? "left-1/2 -translate-x-1/2" : "right-0",
        )}
      >
        {content}
      </span>
    </span>
  );
}
