import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen } from "@testing-library/react";
import type { Session } from "@supabase/supabase-js";
import { consoleNav, problemCopy, subscribersCopy } from "~/content/console";
import { ReadCache } from "../data/cache";
import type { ConsoleClient } from "../data/client";
import { ConsoleContext, type Console } from "../data/console-context";
import type { LiveFeed } from "../data/live";
import { ConsoleShell } from "../shell";

// The waitlist screen has a fault: it throws while it renders.
vi.mock("../screens/waitlist", () => ({
  WaitlistScreen: () => {
    throw new Error("a fault in the waitlist screen");
  },
}));

/** A client whose every request answers an empty list. */
const client = {
  from: () => {
    const q: Record<string, unknown> = {};
    for (const m of ["select", "eq", "is", "not", "or", "order", "range", "returns", "abortSignal"]) q[m] = () => q;
    q.then = (ok: (a: unknown) => unknown) => Promise.resolve({ data: [], error: null, count: 0, status: 200 }).then(ok);
    return q;
  },
} as unknown as ConsoleClient;

const live: LiveFeed = { onChange: () => () => {}, onResume: () => () => {}, onStatus: () => () => {}, status: () => "off", close() {} };

describe("ScreenBoundary", () => {
  it("a screen that throws shows its error state while the navigation still works", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    history.pushState(null, "", "/admin/waitlist");
    const value: Console = {
      client,
      session: { access_token: "t", user: { id: "u1", email: "ada@studio.test" } } as Session,
      live,
      cache: new ReadCache(() => {}),
      reportProblem: () => {},
      signOut: async () => {},
    };
    render(
      <ConsoleContext.Provider value={value}>
        <ConsoleShell />
      </ConsoleContext.Provider>,
    );

    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain(problemCopy.other.title);
    expect(screen.getByRole("navigation")).toBeTruthy();

    const subscribers = consoleNav.find((n) => n.screen === "subscribers")!;
    fireEvent.click(screen.getByRole("link", { name: subscribers.label }));
    expect(await screen.findByRole("heading", { level: 1, name: subscribersCopy.title })).toBeTruthy();
    expect(screen.queryByRole("alert")).toBeNull();
    history.pushState(null, "", "/");
  });
});
