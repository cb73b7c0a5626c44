/**
 * useRequest runs a supabase-js request when its key changes and keeps its
 * state: loading (with the last rows kept, so a page turn does not flash),
 * failed with a Problem, or done. A session or two-step problem is also
 * handed to the sign-in flow. It runs again when the live feed resumes
 * after a gap.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { useConsole } from "./console-context";
import { classify, type Problem } from "./problem";

/** A supabase-js answer: PostgREST's (data, error, count, status). */
export type Answer<T> = { data: T | null; error: { code?: string; message: string } | null; count?: number | null; status: number };

export type RequestState<T> =
  | { phase: "loading"; last?: { data: T; count: number | null } }
  | { phase: "failed"; problem: Problem }
  | { phase: "done"; data: T; count: number | null };

/** run awaits a request and turns a thrown error or an error answer into a Problem. */
export async function run<T>(request: PromiseLike<Answer<T>>): Promise<{ ok: true; data: T; count: number | null } | { ok: false; problem: Problem }> {
  try {
    const a = await request;
    if (a.error) return { ok: false, problem: classify({ status: a.status, code: a.error.code, message: a.error.message }) };
    return { ok: true, data: a.data as T, count: a.count ?? null };
  } catch (err) {
    const e = err as { message?: string; name?: string };
    return { ok: false, problem: classify({ status: 0, message: e?.message, name: e?.name }) };
  }
}

export function useRequest<T>(key: string, request: () => PromiseLike<Answer<T>>): RequestState<T> & { reload: () => void } {
  const { reportProblem, live } = useConsole();
  const [state, setState] = useState<RequestState<T>>({ phase: "loading" });
  const [tick, setTick] = useState(0);
  const latest = useRef(request);
  latest.current = request;
  useEffect(() => {
    let current = true;
    setState((s) => ({ phase: "loading", last: s.phase === "done" ? { data: s.data, count: s.count } : s.phase === "loading" ? s.last : undefined }));
    void run(latest.current()).then((r) => {
      if (!current) return;
      if (r.ok) setState({ phase: "done", data: r.data, count: r.count });
      else {
        setState({ phase: "failed", problem: r.problem });
        reportProblem(r.problem);
      }
    });
    return () => {
      current = false;
    };
  }, [key, tick, reportProblem]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  // Live changes resumed after a gap: what is shown may have missed some.
  useEffect(() => live.onResume(reload), [live, reload]);
  return { ...state, reload };
}
