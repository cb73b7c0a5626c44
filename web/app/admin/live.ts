/**
 * Live updates: one realtime channel for the signed-in console, with
 * postgres_changes on the three tables, shared by every screen through
 * LiveFeed. A screen reloads what it shows when its table changes.
 */
import { useEffect, useSyncExternalStore } from "react";
import type { RealtimePostgresChangesPayload, SupabaseClient } from "@supabase/supabase-js";
import { useConsole } from "./console-context";

export const LIVE_TABLES = ["contact_messages", "waitlist", "subscribers"] as const;
export type LiveTable = (typeof LIVE_TABLES)[number];
export type Change = RealtimePostgresChangesPayload<Record<string, unknown>>;
const LOST_CHECK_INTERVAL_MS = 10_000;

export type LiveStatus = "connecting" | "live" | "off";

export type LiveFeed = {
  onChange(table: LiveTable, listener: (c: Change) => void): () => void;
  onStatus(listener: () => void): () => void;
  status(): LiveStatus;
  close(): void;
};

/**
 * openLiveFeed joins the console's channel. When the channel fails or is
 * closed by the server (a session signed out elsewhere is disconnected),
 * lost() is called so the console can check its session.
 */
export function openLiveFeed(client: SupabaseClient, lost: () => void): LiveFeed {
  const changeListeners = new Map<LiveTable, Set<(c: Change) => void>>();
  const statusListeners = new Set<() => void>();
  let status: LiveStatus = "connecting";
  let closing = false;
  let lastLost = 0;
  const setStatus = (s: LiveStatus) => {
    status = s;
    statusListeners.forEach((l) => l());
  };
  let channel = client.channel("console");
  for (const table of LIVE_TABLES) {
    channel = channel.on("postgres_changes", { event: "*", schema: "public", table }, (payload: Change) => {
      changeListeners.get(table)?.forEach((l) => l(payload));
    });
  }
  channel.subscribe((s) => {
    if (s === "SUBSCRIBED") setStatus("live");
    else if (!closing) {
      setStatus("off");
      // The client retries on its own; the session is checked at most every 10 s meanwhile.
      if (Date.now() - lastLost > LOST_CHECK_INTERVAL_MS) {
        lastLost = Date.now();
        lost();
      }
    }
  });
  return {
    onChange(table, listener) {
      const set = changeListeners.get(table) ?? new Set();
      changeListeners.set(table, set);
      set.add(listener);
      return () => set.delete(listener);
    },
    onStatus(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    status: () => status,
    close() {
      closing = true;
      void client.removeChannel(channel);
    },
  };
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
