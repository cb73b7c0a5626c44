/**
 * ReadCache keeps the console's reads, each under a key made of the tables
 * it reads and its parameters, so that what changes a table reloads every
 * read of it at once: a write of the console (invalidate), or the live
 * feed, whose bursts of changes are coalesced into one reload (connect).
 * A read is kept while a screen watches it; when the last watcher goes, it
 * is forgotten and its unfinished request aborted.
 */
import { run, type Answer } from "./answer";
import { LIVE_TABLES, type LiveFeed } from "./live";
import type { Problem } from "./problem";

/** A read's state; while it loads again, the rows it had are kept in last. */
export type ReadState<T> =
  | { phase: "loading"; last?: { data: T; count: number | null } }
  | { phase: "failed"; problem: Problem }
  | { phase: "done"; data: T; count: number | null };

export type Load<T> = (signal: AbortSignal) => PromiseLike<Answer<T>>;

type Entry = {
  tables: readonly string[];
  load: Load<unknown>;
  state: ReadState<unknown>;
  watchers: Set<() => void>;
  controller?: AbortController;
};

/** Live changes closer together than this make one reload… */
export const COALESCE_MS = 250;
/** …but a steady stream of them still reloads at least this often. */
export const COALESCE_MAX_MS = 1000;

const LOADING: ReadState<never> = { phase: "loading" };

export class ReadCache {
  private entries = new Map<string, Entry>();
  private pending = new Set<string>();
  private timer?: ReturnType<typeof setTimeout>;
  private firstPending = 0;

  /** onProblem hears of every failed read (not of aborted ones): the console sends a session or aal problem to sign-in. */
  constructor(private readonly onProblem: (p: Problem) => void) {}

  state<T>(key: string): ReadState<T> {
    return (this.entries.get(key)?.state ?? LOADING) as ReadState<T>;
  }

  /**
   * watch calls listener when the read under key changes, and reads it when
   * its first watcher comes (showing the rows kept meanwhile). It returns
   * the function that stops watching.
   */
  watch<T>(key: string, tables: readonly string[], load: Load<T>, listener: () => void): () => void {
    let e = this.entries.get(key);
    if (!e) {
      e = { tables, load: load as Load<unknown>, state: LOADING, watchers: new Set() };
      this.entries.set(key, e);
    }
    e.load = load as Load<unknown>;
    e.watchers.add(listener);
    if (e.watchers.size === 1) this.fetch(e);
    const entry = e;
    return () => {
      entry.watchers.delete(listener);
      if (entry.watchers.size > 0) return;
      // The screen went: its unfinished request goes too, and the next screen to watch key reads it afresh.
      entry.controller?.abort();
      this.entries.delete(key);
    };
  }

  /** reload reads key again now. */
  reload(key: string): void {
    const e = this.entries.get(key);
    if (e && e.watchers.size > 0) this.fetch(e);
  }

  /** invalidate reloads every read of table (every read without one). */
  invalidate(table?: string): void {
    for (const e of this.entries.values()) {
      if (table === undefined || e.tables.includes(table)) this.fetch(e);
    }
  }

  /** connect invalidates the tables the live feed changes (bursts coalesced), and everything when it resumes after a gap. */
  connect(live: LiveFeed): () => void {
    const stops = LIVE_TABLES.map((t) => live.onChange(t, () => this.changed(t)));
    stops.push(live.onResume(() => this.invalidate()));
    return () => {
      stops.forEach((stop) => stop());
      clearTimeout(this.timer);
    };
  }

  private changed(table: string): void {
    const now = Date.now();
    if (this.pending.size === 0) this.firstPending = now;
    this.pending.add(table);
    clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(COALESCE_MS, this.firstPending + COALESCE_MAX_MS - now));
    this.timer = setTimeout(() => {
      const tables = [...this.pending];
      this.pending.clear();
      tables.forEach((t) => this.invalidate(t));
    }, wait);
  }

  private fetch(e: Entry): void {
    e.controller?.abort();
    const controller = new AbortController();
    e.controller = controller;
    const s = e.state;
    this.set(e, { phase: "loading", last: s.phase === "done" ? { data: s.data, count: s.count } : s.phase === "loading" ? s.last : undefined });
    void run(started(e.load, controller.signal)).then((r) => {
      // Aborted: the screen went, or a newer read of the same key began.
      if (controller.signal.aborted) return;
      e.controller = undefined;
      if (r.ok) this.set(e, { phase: "done", data: r.data, count: r.count });
      else {
        this.set(e, { phase: "failed", problem: r.problem });
        this.onProblem(r.problem);
      }
    });
  }

  private set(e: Entry, state: ReadState<unknown>): void {
    e.state = state;
    e.watchers.forEach((l) => l());
  }
}

/** started calls load, a throw becoming a failed answer like a rejection. */
function started<T>(load: Load<T>, signal: AbortSignal): PromiseLike<Answer<T>> {
  try {
    return load(signal);
  } catch (err) {
    return Promise.reject(err);
  }
}
