import { describe, expect, it, vi } from "vitest";
import { act, render, screen } from "@testing-library/react";
import type { SupabaseClient } from "@supabase/supabase-js";
import { listCopy } from "~/content/console";
import { ConsoleContext, type Console } from "./console-context";
import { LivePaused } from "../screens/list-screen";
import { nextLiveStatus, openLiveFeed, type LiveStatus } from "./live";
import { ReadCache } from "./cache";
import { useRead } from "./use-read";

const paused = { extension: "postgres_changes", status: "error", message: "Live changes are paused: …" };
const resumed = { extension: "postgres_changes", status: "ok", message: "Subscribed to PostgreSQL again: live changes resumed" };

describe("nextLiveStatus", () => {
  const cases: { name: string; from: LiveStatus; event: Parameters<typeof nextLiveStatus>[1]; status: LiveStatus; resume: boolean }[] = [
    { name: "joined", from: "connecting", event: { subscribe: "SUBSCRIBED" }, status: "live", resume: false },
    { name: "the join's own ok", from: "live", event: { system: { extension: "postgres_changes", status: "ok" } }, status: "live", resume: false },
    { name: "paused", from: "live", event: { system: paused }, status: "paused", resume: false },
    { name: "resumed", from: "paused", event: { system: resumed }, status: "live", resume: true },
    { name: "another extension's error", from: "live", event: { system: { extension: "system", status: "error" } }, status: "live", resume: false },
    { name: "the channel lost", from: "paused", event: { subscribe: "CHANNEL_ERROR" }, status: "off", resume: false },
    { name: "joined again after being off", from: "off", event: { subscribe: "SUBSCRIBED" }, status: "live", resume: true },
  ];
  for (const c of cases) {
    it(c.name, () => expect(nextLiveStatus(c.from, c.event)).toEqual({ status: c.status, resume: c.resume }));
  }
});

/** fakeClient is a supabase client whose one channel the test drives. */
function fakeClient() {
  const handlers: Record<string, ((payload: unknown) => void)[]> = {};
  let subscribed: (status: string) => void = () => {};
  const channel = {
    on(type: string, _filter: unknown, cb: (payload: unknown) => void) {
      (handlers[type] ??= []).push(cb);
      return channel;
    },
    subscribe(cb: (status: string) => void) {
      subscribed = cb;
      return channel;
    },
  };
  const client = { channel: () => channel, removeChannel: vi.fn() } as unknown as SupabaseClient;
  return { client, joined: (s: string) => subscribed(s), system: (p: unknown) => handlers.system?.forEach((h) => h(p)) };
}

function Reader({ request }: { request: () => Promise<{ data: string; error: null; status: number }> }) {
  const r = useRead({ table: "subscribers", read: "k" }, request);
  return <p>{r.phase}</p>;
}

describe("the console while live changes pause", () => {
  it("says so in a status line, and reloads what it shows when they resume", async () => {
    const fake = fakeClient();
    const live = openLiveFeed(fake.client, () => {});
    const request = vi.fn(async () => ({ data: "rows", error: null, status: 200 }));
    const cache = new ReadCache(() => {});
    cache.connect(live);
    const ctx = { live, cache, reportProblem: () => {} } as unknown as Console;
    render(
      <ConsoleContext.Provider value={ctx}>
        <LivePaused />
        <Reader request={request} />
      </ConsoleContext.Provider>,
    );
    await screen.findByText("done");
    act(() => fake.joined("SUBSCRIBED"));
    expect(screen.getByRole("status").textContent).toBe("");

    act(() => fake.system(paused));
    expect(live.status()).toBe("paused");
    expect(screen.getByRole("status").textContent).toContain(listCopy.livePaused);
    expect(request).toHaveBeenCalledTimes(1);

    act(() => fake.system(resumed));
    expect(live.status()).toBe("live");
    expect(screen.getByRole("status").textContent).toBe("");
    await screen.findByText("done");
    expect(request).toHaveBeenCalledTimes(2);
  });
});
