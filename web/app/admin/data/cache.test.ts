import { describe, expect, it, vi } from "vitest";
import { ReadCache } from "./cache";
import type { LiveFeed } from "./live";

const settle = () => new Promise((r) => setTimeout(r, 0));

/** A live feed whose resume the test calls. */
function feed() {
  const resumes = new Set<() => void>();
  const live: LiveFeed = { onChange: () => () => {}, onResume: (l) => (resumes.add(l), () => resumes.delete(l)), onStatus: () => () => {}, status: () => "live", close() {} };
  return { live, resume: () => resumes.forEach((l) => l()) };
}

describe("ReadCache", () => {
  it("reloads the reads of the table a write names, and every read when the live feed resumes", async () => {
    const cache = new ReadCache(() => {});
    const { live, resume } = feed();
    cache.connect(live);
    const messages = vi.fn(async () => ({ data: ["m"], error: null }));
    const subscribers = vi.fn(async () => ({ data: ["s"], error: null }));
    cache.watch("inbox", ["contact_messages"], messages, () => {});
    cache.watch("subs", ["subscribers"], subscribers, () => {});
    await settle();
    expect(cache.state("inbox")).toMatchObject({ phase: "done", data: ["m"] });

    cache.invalidate("contact_messages");
    await settle();
    expect([messages.mock.calls.length, subscribers.mock.calls.length]).toEqual([2, 1]);

    resume();
    await settle();
    expect([messages.mock.calls.length, subscribers.mock.calls.length]).toEqual([3, 2]);
  });

  it("hands a failed read's problem on, and one that threw too; an aborted read's never", async () => {
    const problems: string[] = [];
    const cache = new ReadCache((p) => problems.push(p.kind));
    cache.watch("a", ["t"], async () => ({ data: null, error: { code: "PGRST301", message: "JWT expired" }, status: 401 }), () => {});
    cache.watch("b", ["t"], () => {
      throw new Error("Failed to fetch");
    }, () => {});
    const stop = cache.watch("c", ["t"], (signal) => new Promise<never>((_, fail) => signal.addEventListener("abort", () => fail(new Error("aborted")))), () => {});
    stop();
    await settle();
    expect(problems.sort()).toEqual(["network", "session"]);
    expect(cache.state("a")).toMatchObject({ phase: "failed", problem: { kind: "session" } });
  });
});
