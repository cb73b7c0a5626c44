/**
 * Helpers of the console's tests with the real data layer: the typed client
 * whose fetch a handler answers (the HTTP boundary), a live feed the test
 * drives, and a screen rendered inside a signed-in console with its own
 * read cache.
 */
import type { ReactNode } from "react";
import { render } from "@testing-library/react";
import { createClient, type Session } from "@supabase/supabase-js";
import { ReadCache } from "./data/cache";
import type { ConsoleClient } from "./data/client";
import { ConsoleContext, type Console } from "./data/console-context";
import type { Database } from "./data/database";
import type { Change, LiveFeed, LiveStatus, LiveTable } from "./data/live";
import type { Problem } from "./data/problem";

export type Handler = (req: Request, init?: RequestInit) => Promise<Response> | Response;

/** clientFor is the console's typed client whose requests handler answers. */
export function clientFor(handler: Handler): ConsoleClient {
  return createClient<Database>("http://studio.test", "anon-key", {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { fetch: async (input, init) => handler(new Request(input, init), init) },
  });
}

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });

/** fakeLive is a live feed whose changes the test sends; its status stays as given ("off": nothing comes by itself). */
export function fakeLive(status: LiveStatus = "off") {
  const listeners = new Map<LiveTable, Set<(c: Change) => void>>();
  const feed: LiveFeed = {
    onChange(table, l) {
      const set = listeners.get(table) ?? new Set();
      listeners.set(table, set);
      set.add(l);
      return () => set.delete(l);
    },
    onResume: () => () => {},
    onStatus: () => () => {},
    status: () => status,
    close() {},
  };
  const change = (table: LiveTable) => listeners.get(table)?.forEach((l) => l({ eventType: "UPDATE", new: {}, old: {} } as unknown as Change));
  return { feed, change };
}

/** renderConsole renders ui inside a signed-in console at path, with its own cache joined to the live feed. */
export function renderConsole(ui: ReactNode, { client, path, live = fakeLive().feed }: { client: ConsoleClient; path: string; live?: LiveFeed }) {
  history.pushState(null, "", path);
  const problems: Problem[] = [];
  const cache = new ReadCache((p) => problems.push(p));
  cache.connect(live);
  const session = { access_token: "token", user: { id: "u1", email: "ada@studio.test" } } as Session;
  const value: Console = { client, session, live, cache, reportProblem: (p) => problems.push(p), signOut: async () => {} };
  render(<ConsoleContext.Provider value={value}>{ui}</ConsoleContext.Provider>);
  return { problems };
}
