/** What every screen of the signed-in console shares: the client, the person, the reads, and how to report a failed request. */
import { createContext, useContext } from "react";
import type { Session } from "@supabase/supabase-js";
import type { ReadCache } from "./cache";
import type { ConsoleClient } from "./client";
import type { LiveFeed } from "./live";
import type { Problem } from "./problem";

export type Console = {
  client: ConsoleClient;
  session: Session;
  /** reportProblem hands a session or two-step problem to the sign-in flow (other kinds are the screen's to show). */
  reportProblem: (p: Problem) => void;
  signOut: (scope: "local" | "global") => Promise<void>;
  /** live is the realtime feed of the tables' changes. */
  live: LiveFeed;
  /** cache holds the screens' reads; a write invalidates the tables it changed. */
  cache: ReadCache;
};

export const ConsoleContext = createContext<Console | null>(null);

export function useConsole(): Console {
  const c = useContext(ConsoleContext);
  if (!c) throw new Error("useConsole outside the signed-in console");
  return c;
}
