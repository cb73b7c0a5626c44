/**
 * The console's data layer against the real hooks and screens, with the
 * supabase client's fetch answered by a small in-memory rest/v1 and
 * storage/v1, and a live feed the test drives (off unless it says so).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { consoleNav, messageCopy } from "~/content/console";
import type { ContactMessage } from "./data/tables";
import { FilesScreen } from "./screens/files";
import { InboxScreen } from "./screens/inbox";
import { ConsoleShell } from "./shell";
import { clientFor, fakeLive, json, renderConsole, type Handler } from "./test-console";

/** restV1 answers the inbox's reads and PATCHes from rows, as rest/v1 would (the filters the console sends: eq, is, not.is). */
function restV1(rows: ContactMessage[]) {
  const seen: { method: string; url: URL }[] = [];
  const handler: Handler = async (req) => {
    const url = new URL(req.url);
    seen.push({ method: req.method, url });
    if (url.pathname !== "/rest/v1/contact_messages") return json([]);
    const filters = [...url.searchParams].filter(([k]) => ["id", "spam", "handled_at"].includes(k));
    const match = (m: ContactMessage) =>
      filters.every(([k, v]) => {
        const value = m[k as keyof ContactMessage];
        if (v === "is.null") return value === null;
        if (v === "not.is.null") return value !== null;
        return v.startsWith("eq.") ? String(value) === v.slice(3) : true;
      });
    if (req.method === "PATCH") {
      const change = (await req.json()) as Partial<ContactMessage>;
      rows.filter(match).forEach((m) => Object.assign(m, change));
      return json(rows.filter(match));
    }
    const found = rows.filter(match);
    const range = { "Content-Range": found.length ? `0-${found.length - 1}/${found.length}` : "*/0" };
    if (req.method === "HEAD") return new Response(null, { status: 200, headers: range });
    return json(found, 200, range);
  };
  return { handler, seen };
}

const message = (id: string, name: string): ContactMessage => ({
  id,
  received_at: "2026-05-01T09:00:00Z",
  name,
  email: `${id}@example.com`,
  company: null,
  phone: null,
  message: "Hello",
  spam: false,
  handled_at: null,
  handled_by: null,
});

afterEach(() => {
  vi.useRealTimers();
  history.pushState(null, "", "/");
});

describe("the console's data layer", () => {
  it("a message marked handled updates the inbox list and the open count at once, with the live feed off", async () => {
    const rest = restV1([message("m1", "Ada Lovelace"), message("m2", "Grace Hopper")]);
    // The shell (with the open count) shows the message; the inbox list is shown beside it.
    renderConsole(
      <>
        <ConsoleShell />
        <InboxScreen />
      </>,
      { client: clientFor(rest.handler), path: "/admin/inbox/m1" },
    );
    await waitFor(() => expect(screen.getByTestId("open-count").textContent).toContain("2"));
    expect(within(screen.getByTestId("message-list")).getAllByRole("listitem")).toHaveLength(2);

    fireEvent.click(await screen.findByRole("button", { name: messageCopy.actions.handle }));

    await waitFor(() => expect(screen.getByTestId("open-count").textContent).toContain("1"));
    expect(within(screen.getByTestId("message-list")).getAllByRole("listitem")).toHaveLength(1);
    expect(screen.getByTestId("message-list").textContent).not.toContain("Ada Lovelace");
  });

  it("20 changes in one second cause at most 2 reloads of an open list", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const rest = restV1([message("m1", "Ada Lovelace")]);
    const live = fakeLive("live");
    renderConsole(<InboxScreen />, { client: clientFor(rest.handler), path: "/admin/inbox", live: live.feed });
    const listReads = () => rest.seen.filter((r) => r.method === "GET").length;
    await act(async () => {});
    expect(listReads()).toBe(1);

    for (let i = 0; i < 20; i++) {
      act(() => live.change("contact_messages"));
      await act(async () => vi.advanceTimersByTime(50));
    }
    await act(async () => vi.advanceTimersByTime(2000));

    const reloads = listReads() - 1;
    expect(reloads).toBeGreaterThanOrEqual(1);
    expect(reloads).toBeLessThanOrEqual(2);
  });

  it("leaving a screen mid-read aborts its request", async () => {
    const signals: AbortSignal[] = [];
    const rest = restV1([]);
    const client = clientFor((req, init) => {
      const url = new URL(req.url);
      // The inbox's page (not the open count's HEAD) never answers until it is aborted.
      if (req.method !== "GET" || url.pathname !== "/rest/v1/contact_messages") return rest.handler(req);
      const signal = init!.signal!;
      signals.push(signal);
      return new Promise((_, fail) => signal.addEventListener("abort", () => fail(new DOMException("aborted", "AbortError"))));
    });
    renderConsole(<ConsoleShell />, { client, path: "/admin/inbox" });
    await waitFor(() => expect(signals).toHaveLength(1));
    expect(signals[0]!.aborted).toBe(false);

    const waitlist = consoleNav.find((n) => n.screen === "waitlist")!;
    fireEvent.click(screen.getByRole("link", { name: waitlist.label }));

    await waitFor(() => expect(signals[0]!.aborted).toBe(true));
  });

  it("an ended session on the Files screen goes to the sign-in flow", async () => {
    // storage/v1 refuses a token whose session is gone as Supabase Storage does: 400 with statusCode 403 and auth's words.
    const client = clientFor(() =>
      json({ statusCode: "403", code: "AccessDenied", error: "Unauthorized", message: "Session from session_id claim in JWT does not exist" }, 400),
    );
    const { problems } = renderConsole(<FilesScreen prefix="" />, { client, path: "/admin/files" });
    await screen.findByRole("alert");
    expect(problems.map((p) => p.kind)).toContain("session");
  });
});
