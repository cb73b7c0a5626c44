/** What every screen of the signed-in console shares: the client, the person, and how to report a failed request. */
import { createContext, useContext } from "react";
import type { Session, SupabaseClient } from "@supabase/supabase-js";
import type { LiveFeed } from "./live";
import type { Problem } from "./problem";

export type Console = {
  client: SupabaseClient;
  session: Session;
  /** reportProblem hands a session or two-step problem to the sign-in flow (other kinds are the screen's to show). */
  reportProblem: (p: Problem) => void;
  signOut: (scope: "local" | "global") => Promise<void>;
  /** live is the realtime feed of the tables' changes. */
  live: LiveFeed;
};

export const ConsoleContext = createContext<Console | null>(null);

export function useConsole(): Console {
  const c = useContext(ConsoleContext);
  if (!c) throw new Error("useConsole outside the signed-in console");
  return c;
}
