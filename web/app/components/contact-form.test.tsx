import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, render, screen } from "@testing-library/react";
import { ContactPanel } from "./contact-form";
import { contactForm } from "~/content/contact";

/** The server's answers, in order: a lost answer (the network failed), a 503, or a success. */
type Answer = "network" | "unavailable" | "ok";
const fetchMock = vi.fn<typeof fetch>();

function answerWith(answer: Answer) {
  fetchMock.mockImplementationOnce(async () => {
    if (answer === "network") throw new TypeError("Failed to fetch");
    const [status, body] = answer === "ok" ? [200, { id: "m1", received_at: "2025-01-01T00:00:00Z" }] : [503, { error: "The service is unavailable." }];
    return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  });
}

/** The Idempotency-Key of each call made so far. */
function sentKeys(): (string | undefined)[] {
  return fetchMock.mock.calls.map(([, init]) => (init?.headers as Record<string, string> | undefined)?.["Idempotency-Key"]);
}

type Field = keyof typeof contactForm.fields;
const message: Record<Field, string> = { name: "Ada Lovelace", email: "ada@example.com", company: "Analytical", phone: "+44 20 0000 0000", message: "Hello" };

const input = (field: Field) => document.querySelector<HTMLInputElement>(`[name="${field}"]`)!;

function fill(values: Record<Field, string>) {
  for (const [field, value] of Object.entries(values)) fireEvent.change(input(field as Field), { target: { value } });
}

/** send clicks Send Message and waits for the answer; the form must have called the function once. */
async function send(answer: Answer) {
  answerWith(answer);
  const before = fetchMock.mock.calls.length;
  await act(async () => {
    fireEvent.click(screen.getByRole("button", { name: contactForm.submit }));
  });
  expect(fetchMock.mock.calls.length).toBe(before + 1);
}

describe("ContactPanel's Idempotency-Key", () => {
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal("fetch", fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it("stays the same when the same message is sent again after a failure", async () => {
    render(<ContactPanel />);
    fill(message);
    await send("network");
    await send("unavailable");
    await send("ok");
    const keys = sentKeys();
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys).toEqual([keys[0], keys[0], keys[0]]);
  });

  it("changes once any field is edited", async () => {
    render(<ContactPanel />);
    fill(message);
    await send("unavailable");
    for (const field of Object.keys(message) as Field[]) {
      fireEvent.change(input(field), { target: { value: `${message[field]}1` } });
      await send("unavailable");
    }
    const keys = sentKeys();
    expect(keys).toHaveLength(6);
    expect(new Set(keys).size).toBe(6);
  });

  it("changes after a success, for the next message even when it is the same", async () => {
    render(<ContactPanel />);
    fill(message);
    await send("ok");
    fireEvent.click(screen.getByRole("button", { name: contactForm.success.again }));
    fill(message);
    await send("ok");
    const [first, second] = sentKeys();
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect(second).toMatch(/^[0-9a-f]{32}$/);
    expect(second).not.toBe(first);
  });
});
