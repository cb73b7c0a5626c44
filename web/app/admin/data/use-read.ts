/**
 * The screens' hooks on the console's data: useRead shows one read of the
 * cache (cache.ts) and keeps the rows of the previous parameters while the
 * new ones load, so a page turn does not flash; useLiveChanges and
 * useLiveStatus follow the live feed.
 */
import { useCallback, useEffect, useRef, useSyncExternalStore } from "react";
import type { Load, ReadState } from "./cache";
import { useConsole } from "./console-context";
import type { Change, LiveStatus, LiveTable } from "./live";

/** What a read reads: the table a write or a live change invalidates it by, which read of it, and with what. */
export type ReadKey = { table: string; read: string; params?: unknown };

export type Read<T> = ReadState<T> & { reload: () => void };

/**
 * useRead reads key with load while the screen is shown; load gets the
 * signal that aborts its request when the screen goes. A session or
 * two-step problem goes to the sign-in flow.
 */
export function useRead<T>(key: ReadKey, load: Load<T>): Read<T> {
  const { cache } = useConsole();
  const k = JSON.stringify([key.table, key.read, key.params ?? null]);
  const latest = useRef(load);
  latest.current = load;
  const table = key.table;
  const subscribe = useCallback((listener: () => void) => cache.watch<T>(k, [table], (signal) => latest.current(signal), listener), [cache, k, table]);
  const state = useSyncExternalStore(subscribe, () => cache.state<T>(k));
  const last = useRef<{ data: T; count: number | null }>(undefined);
  if (state.phase === "done") last.current = { data: state.data, count: state.count };
  const reload = useCallback(() => cache.reload(k), [cache, k]);
  const shown: ReadState<T> = state.phase === "loading" && !state.last && last.current ? { phase: "loading", last: last.current } : state;
  return { ...shown, reload };
}

/** useLiveChanges calls onChange for every change to table while the screen is shown. */
export function useLiveChanges(table: LiveTable, onChange: (c: Change) => void): void {
  const { live } = useConsole();
  useEffect(() => live.onChange(table, onChange), [live, table, onChange]);
}

/** useLiveStatus is the live feed's state, for the "Live" mark. */
export function useLiveStatus(): LiveStatus {
  const { live } = useConsole();
  return useSyncExternalStore(live.onStatus, live.status, () => "connecting");
}
