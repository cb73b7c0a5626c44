/**
 * Live updates: one realtime channel for the signed-in console, with
 * postgres_changes on the exposed tables, shared by every screen through
 * LiveFeed. The read cache (cache.ts) reloads the reads of a table when it
 * changes, and every read when the feed resumes after a gap (onResume): the
 * server says with a system message when its live changes pause (it is not
 * hearing PostgreSQL's changes) and resume, and changes made meanwhile are
 * not sent.
 */
import type { RealtimePostgresChangesPayload, SupabaseClient } from "@supabase/supabase-js";

/** analytics_live changes (at most once a second) while the server counts visitors: the analytics screen reads again. */
export const LIVE_TABLES = ["contact_messages", "waitlist", "subscribers", "analytics_live"] as const;
export type LiveTable = (typeof LIVE_TABLES)[number];
export type Change = RealtimePostgresChangesPayload<Record<string, unknown>>;
const LOST_CHECK_INTERVAL_MS = 10_000;

/** paused: joined, but the server says its live changes are paused. */
export type LiveStatus = "connecting" | "live" | "paused" | "off";

/** A system message of the postgres_changes extension (Supabase Realtime's). */
export type SystemMessage = { extension?: string; status?: string; message?: string };

/** What the feed does on an event of its channel: its next status, and whether what was missed must be read again. */
export function nextLiveStatus(
  status: LiveStatus,
  event: { subscribe: string } | { system: SystemMessage },
): { status: LiveStatus; resume: boolean } {
  if ("subscribe" in event) {
    // Joined again after being off: changes made meanwhile were not sent.
    if (event.subscribe === "SUBSCRIBED") return { status: "live", resume: status === "off" };
    return { status: "off", resume: false };
  }
  if (event.system.extension !== "postgres_changes") return { status, resume: false };
  if (event.system.status === "error") return { status: status === "live" ? "paused" : status, resume: false };
  if (event.system.status === "ok" && status === "paused") return { status: "live", resume: true };
  return { status, resume: false };
}

export type LiveFeed = {
  onChange(table: LiveTable, listener: (c: Change) => void): () => void;
  /** onResume calls listener when live changes resume after a gap: read again what is shown. */
  onResume(listener: () => void): () => void;
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
  const resumeListeners = new Set<() => void>();
  let status: LiveStatus = "connecting";
  let closing = false;
  let lastLost = 0;
  const apply = (event: Parameters<typeof nextLiveStatus>[1]) => {
    const next = nextLiveStatus(status, event);
    if (next.status !== status) {
      status = next.status;
      statusListeners.forEach((l) => l());
    }
    if (next.resume) resumeListeners.forEach((l) => l());
  };
  let channel = client.channel("console");
  for (const table of LIVE_TABLES) {
    channel = channel.on("postgres_changes", { event: "*", schema: "public", table }, (payload: Change) => {
      changeListeners.get(table)?.forEach((l) => l(payload));
    });
  }
  channel = channel.on("system", {}, (payload: SystemMessage) => apply({ system: payload }));
  channel.subscribe((s) => {
    if (s === "SUBSCRIBED") apply({ subscribe: s });
    else if (!closing) {
      apply({ subscribe: s });
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
    onResume(listener) {
      resumeListeners.add(listener);
      return () => resumeListeners.delete(listener);
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
