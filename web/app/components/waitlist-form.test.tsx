import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, render, screen } from "@testing-library/react";
import { Toaster, dismissToast, useToasts } from "~/components/ui/toast";
import { WaitlistForm } from "./waitlist-form";
import { joinWaitlist } from "~/lib/signup";

vi.mock("~/lib/signup", async (importOriginal) => ({ ...(await importOriginal<typeof import("~/lib/signup")>()), joinWaitlist: vi.fn() }));
const join = vi.mocked(joinWaitlist);

function deferred() {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function ClearToasts() {
  const toasts = useToasts();
  return <button type="button" onClick={() => toasts.forEach((t) => dismissToast(t.id))}>clear toasts</button>;
}

function setup() {
  render(
    <>
      <WaitlistForm productId="saas-2" productName="LedgerLoop" />
      <Toaster />
      <ClearToasts />
    </>,
  );
  const input = screen.getByLabelText("Email address") as HTMLInputElement;
  const form = input.form!;
  return { input, form };
}

describe("WaitlistForm", () => {
  beforeEach(() => {
    join.mockReset();
  });
  afterEach(() => fireEvent.click(screen.getByText("clear toasts")));

  it("asks the browser to validate a required email", () => {
    const { input } = setup();
    expect(input.type).toBe("email");
    expect(input.required).toBe(true);
  });

  it("reads 'Subscribing...' and is disabled while running; on success a toast and an empty field", async () => {
    const call = deferred();
    join.mockReturnValue(call.promise);
    const { input, form } = setup();
    fireEvent.change(input, { target: { value: "ada@example.com" } });
    fireEvent.submit(form);
    const button = screen.getByRole("button", { name: "Subscribing..." });
    expect(button.getAttribute("aria-disabled")).toBe("true"); // not disabled: focus stays on it
    expect(join).toHaveBeenCalledWith("ada@example.com", "saas-2", undefined); // no CAPTCHA token: the page asks for none
    await act(async () => call.resolve());
    expect(screen.getByRole("status").textContent).toContain("You're on the list!");
    expect(input.value).toBe("");
    expect(screen.getByRole("button", { name: "Notify Me" }).hasAttribute("aria-disabled")).toBe(false);
  });

  it("on failure shows an error toast with the reason and keeps the field", async () => {
    join.mockImplementation(async () => {
      throw new Error("This address is already on the waitlist.");
    });
    const { input, form } = setup();
    fireEvent.change(input, { target: { value: "ada@example.com" } });
    await act(async () => {
      fireEvent.submit(form);
    });
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toContain("Error");
    expect(alert.textContent).toContain("This address is already on the waitlist.");
    expect(alert.getAttribute("data-variant")).toBe("destructive");
    expect(input.value).toBe("ada@example.com");
    expect(screen.getByRole("button", { name: "Notify Me" })).toBeTruthy();
  });

  it("falls back to a generic message when the error has none", async () => {
    join.mockImplementation(async () => {
      throw new Error("");
    });
    const { input, form } = setup();
    fireEvent.change(input, { target: { value: "ada@example.com" } });
    await act(async () => {
      fireEvent.submit(form);
    });
    expect(screen.getByRole("alert").textContent).toContain("Could not join the waitlist. Please try again.");
  });
});
