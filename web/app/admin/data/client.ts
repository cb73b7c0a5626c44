/**
 * The console's one Supabase client: createClient<Database>(location.origin, anonKey)
 * with the anon key fetched from the server at start (GET /admin/config.json,
 * the key "studio keys print-anon" prints), the session kept in localStorage
 * and refreshed by the client shortly before it expires.
 */
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import type { Database } from "./database";

/** ConsoleClient is supabase-js typed by the tables rest/v1 exposes (database.ts, generated from internal/query/tables.go). */
export type ConsoleClient = SupabaseClient<Database>;

export const CONFIG_URL = "/admin/config.json";

/** The key the client keeps the session under in localStorage. */
export const SESSION_STORAGE_KEY = "studio-console-auth";

let pending: Promise<ConsoleClient> | undefined;

/** The anon key each client was made with (supabase-js keeps its own private). */
const anonKeys = new WeakMap<ConsoleClient, string>();

/** anonKeyOf is the anon key a console client sends as apikey (for requests made without supabase-js: uploads with progress). */
export function anonKeyOf(client: ConsoleClient): string {
  return anonKeys.get(client) ?? "";
}

/** consoleClient loads the configuration once and makes the client; a failed load is tried again on the next call. */
export function consoleClient(): Promise<ConsoleClient> {
  pending ??= makeClient().catch((err: unknown) => {
    pending = undefined;
    throw err;
  });
  return pending;
}

async function makeClient(): Promise<ConsoleClient> {
  const res = await fetch(CONFIG_URL, { headers: { Accept: "application/json" }, cache: "no-store" });
  if (!res.ok) throw new Error(`${CONFIG_URL}: ${res.status}`);
  const { anonKey } = (await res.json()) as { anonKey?: unknown };
  if (typeof anonKey !== "string" || !anonKey) throw new Error(`${CONFIG_URL}: no anonKey`);
  const client = createClient<Database>(location.origin, anonKey, {
    auth: {
      persistSession: true,
      autoRefreshToken: true,
      storage: window.localStorage,
      storageKey: SESSION_STORAGE_KEY,
      // The mailed link carries token_hash, which the sign-in screen verifies itself (verifyOtp).
      detectSessionInUrl: false,
      flowType: "implicit",
    },
  });
  anonKeys.set(client, anonKey);
  return client;
}
