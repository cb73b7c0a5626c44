/**
 * Tooltip: a short description of its trigger, shown while the trigger is
 * hovered or has keyboard focus, and hidden again by Escape (WCAG 1.4.13:
 * dismissible without moving the pointer or focus; the tooltip itself can be
 * hovered: it reaches down to the trigger with no gap between them, so the
 * pointer can move onto it). It is moved sideways to stay on the screen. The
 * trigger is rendered by the caller, which spreads the given
 * props on it: they make it focusable and point aria-describedby at the
 * tooltip, so screen readers announce the text too.
 */
import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { cn } from "~/lib/cn";

export type TooltipTriggerProps = { "aria-describedby": string; tabIndex: 0 };

/** The least room kept between a tooltip and the edge of the screen, in px. */
const EDGE = 8;

/** keepOnScreen moves the tooltip sideways (a transform, on top of its placement) so that it is whole within the viewport. */
function keepOnScreen(tip: HTMLElement) {
  tip.style.transform = "";
  const { left, right } = tip.getBoundingClientRect();
  const room = document.documentElement.clientWidth - EDGE;
  const shift = left < EDGE ? EDGE - left : right > room ? room - right : 0;
  if (shift) tip.style.transform = `translateX(${shift}px)`;
}

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
  const tip = useRef<HTMLSpanElement>(null);
  const open = (hovered || focused) && !dismissed;

  // Placed as it opens, again on the next frame (the page may still be settling) and on resize.
  useLayoutEffect(() => {
    const el = tip.current;
    if (!open || !el) return;
    const place = () => keepOnScreen(el);
    place();
    const frame = requestAnimationFrame(place);
    addEventListener("resize", place);
    return () => {
      cancelAnimationFrame(frame);
      removeEventListener("resize", place);
    };
  }, [open]);

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
      {/* Its bottom padding spans the gap above the trigger: the pointer crosses it without leaving. */}
      <span
        ref={tip}
        role="tooltip"
        id={id}
        hidden={!open}
        className={cn("absolute bottom-full z-20 w-max max-w-[calc(100vw-1rem)] pb-2", align === "center" ? "left-1/2 -translate-x-1/2" : "right-0")}
      >
        <span className="block rounded-md bg-slate-900 px-2.5 py-1.5 text-xs font-medium text-white shadow-lg dark:bg-white dark:text-slate-900">{content}</span>
      </span>
    </span>
  );
}
