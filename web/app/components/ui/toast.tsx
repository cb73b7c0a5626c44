/**
 * Toasts: short notices after an action ("Message sent!", "Error"). One
 * Toaster in the root layout shows them; toast() raises one from anywhere.
 * At most three show at once, each for five seconds of being seen: the time
 * stands still while the pointer is over them or focus is in them (WCAG
 * 2.2.1), and F8 moves focus to them. They sit at the bottom of the screen,
 * clear of the header. Screen readers hear them through a live region
 * (errors assertively). A form that raises one also keeps its outcome on the
 * page (useSignupForm, the contact form): a toast is never the only trace.
 */
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { X } from "lucide-react";
import { cn } from "~/lib/cn";
import { wakeIsland } from "~/islands/wake";

/** The Toaster island hydrates when the first toast is raised (islands/wake.ts). */
export const TOASTER_WAKE = "toaster";

export type ToastVariant = "default" | "destructive";
export type ToastInput = { title: string; description?: string; variant?: ToastVariant };
export type Toast = ToastInput & { id: number };

export const TOAST_LIMIT = 3;
export const TOAST_DURATION_MS = 5000;
const HOTKEY = "F8";

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit(next: readonly Toast[]) {
  toasts = next;
  listeners.forEach((l) => l());
}

/** toast shows a notice and returns its id. The oldest is dropped beyond TOAST_LIMIT. */
export function toast(input: ToastInput): number {
  const id = nextId++;
  emit([...toasts, { ...input, id }].slice(-TOAST_LIMIT));
  wakeIsland(TOASTER_WAKE);
  return id;
}

export function dismissToast(id: number): void {
  emit(toasts.filter((t) => t.id !== id));
}

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

const empty: readonly Toast[] = [];

export function useToasts(): readonly Toast[] {
  return useSyncExternalStore(subscribe, () => toasts, () => empty);
}

/** useDismissAfterShown dismisses the toast once it has been shown, unpaused, for TOAST_DURATION_MS. */
function useDismissAfterShown(id: number, paused: boolean) {
  const left = useRef(TOAST_DURATION_MS);
  useEffect(() => {
    if (paused) return;
    const since = Date.now();
    const timer = window.setTimeout(() => dismissToast(id), left.current);
    return () => {
      window.clearTimeout(timer);
      left.current -= Date.now() - since;
    };
  }, [id, paused]);
}

function ToastItem({ t, paused, onDismiss }: { t: Toast; paused: boolean; onDismiss: (id: number) => void }) {
  useDismissAfterShown(t.id, paused);
  const destructive = t.variant === "destructive";
  return (
    <li
      className={cn(
        "pointer-events-auto flex w-full items-start gap-3 rounded-xl border p-4 shadow-lg",
        destructive
          ? "border-red-700 bg-red-700 text-white"
          : "border-slate-200 bg-white text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-white",
      )}
    >
      {/* The live region is inside the list item: a listitem may not take another role. */}
      <div role={destructive ? "alert" : "status"} data-variant={t.variant ?? "default"} className="flex-1">
        <p className="font-semibold">{t.title}</p>
        {t.description && <p className={cn("mt-1 text-sm", destructive ? "text-red-50" : "text-slate-600 dark:text-slate-300")}>{t.description}</p>}
      </div>
      <button
        type="button"
        onClick={() => onDismiss(t.id)}
        aria-label="Dismiss notification"
        className={cn(
          "rounded-md p-1 focus-visible:outline-2",
          destructive ? "text-white hover:bg-white/15 focus-visible:outline-white" : "text-slate-500 hover:bg-slate-100 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-300 dark:text-slate-300 dark:hover:bg-slate-800",
        )}
      >
        <X aria-hidden="true" className="size-4" />
      </button>
    </li>
  );
}

/** Toaster renders the toasts; put it once in the root layout. */
export function Toaster() {
  const items = useToasts();
  const region = useRef<HTMLOListElement>(null);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  // Where F8 came from: focus goes back there when the last toast is dismissed.
  const cameFrom = useRef<HTMLElement | null>(null);
  // A toast removed under the pointer or with focus fires no leave or blur.
  useEffect(() => {
    if (items.length > 0) return;
    setHovered(false);
    setFocused(false);
  }, [items.length]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== HOTKEY || !region.current) return;
      if (!region.current.contains(document.activeElement)) cameFrom.current = document.activeElement as HTMLElement | null;
      region.current.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  // Dismissed with its button: focus moves to the next toast's, or back to where F8 came from.
  const dismiss = (id: number) => {
    dismissToast(id);
    window.requestAnimationFrame(() => {
      const list = region.current;
      if (!list || list.contains(document.activeElement)) return;
      const next = list.querySelector("button") ?? (cameFrom.current?.isConnected ? cameFrom.current : null);
      next?.focus();
    });
  };
  return (
    <section aria-label={`Notifications (${HOTKEY})`} className="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex justify-center p-4 sm:inset-x-auto sm:right-0">
      <ol
        ref={region}
        tabIndex={-1}
        onMouseEnter={() => setHovered(true)}
        onMouseLeave={() => setHovered(false)}
        onFocus={() => setFocused(true)}
        onBlur={(e) => setFocused(e.currentTarget.contains(e.relatedTarget as Node | null))}
        className="flex w-full max-w-sm flex-col gap-2 outline-none"
      >
        {items.map((t) => (
          <ToastItem key={t.id} t={t} paused={hovered || focused} onDismiss={dismiss} />
        ))}
      </ol>
    </section>
  );
}
