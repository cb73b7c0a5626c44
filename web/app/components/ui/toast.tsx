/**
 * Toasts: short notices after an action ("Message sent!", "Error"). One
 * Toaster in the root layout shows them; toast() raises one from anywhere.
 * At most three show at once, each for five seconds; F8 moves focus to them.
 * Screen readers hear them through a live region (errors assertively).
 */
import { useEffect, useRef, useSyncExternalStore } from "react";
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

function ToastItem({ t }: { t: Toast }) {
  useEffect(() => {
    const timer = window.setTimeout(() => dismissToast(t.id), TOAST_DURATION_MS);
    return () => window.clearTimeout(timer);
  }, [t.id]);
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
        onClick={() => dismissToast(t.id)}
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
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === HOTKEY) region.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  return (
    <section aria-label={`Notifications (${HOTKEY})`} className="pointer-events-none fixed inset-x-0 top-0 z-50 flex justify-center p-4 sm:inset-x-auto sm:right-0 sm:bottom-0 sm:top-auto">
      <ol ref={region} tabIndex={-1} className="flex w-full max-w-sm flex-col gap-2 outline-none">
        {items.map((t) => (
          <ToastItem key={t.id} t={t} />
        ))}
      </ol>
    </section>
  );
}
