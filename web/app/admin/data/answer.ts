/** A request's answer as the console reads it, whichever service gave it. */
import { problemOf, type Problem } from "./problem";

/** A supabase-js answer: PostgREST's (data, error, count, status); auth and storage answers have data and error only. */
export type Answer<T> = { data: T | null; error: unknown; count?: number | null; status?: number };

export type Outcome<T> = { ok: true; data: T; count: number | null } | { ok: false; problem: Problem };

/** run awaits a request and turns a thrown error or an error answer into a Problem. */
export async function run<T>(request: PromiseLike<Answer<T>>): Promise<Outcome<T>> {
  try {
    const a = await request;
    if (a.error) return { ok: false, problem: problemOf(a.error, a.status) };
    return { ok: true, data: a.data as T, count: a.count ?? null };
  } catch (err) {
    return { ok: false, problem: problemOf(err, 0) };
  }
}
