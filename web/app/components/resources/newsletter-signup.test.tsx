import { afterEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, render, screen } from "@testing-library/react";
import { NewsletterSignup } from "./newsletter-signup";
import { Toaster, dismissToast, useToasts } from "~/components/ui/toast";
import { subscribeNewsletter } from "~/lib/signup";

vi.mock("~/lib/signup", async (importOriginal) => ({ ...(await importOriginal<typeof import("~/lib/signup")>()), subscribeNewsletter: vi.fn() }));
const subscribe = vi.mocked(subscribeNewsletter);

function ClearToasts() {
  const toasts = useToasts();
  return <button onClick={() => toasts.forEach((t) => dismissToast(t.id))}>clear toasts</button>;
}

function setup() {
  render(
    <>
      <NewsletterSignup />
      <Toaster />
      <ClearToasts />
    </>,
  );
  const input = screen.getByLabelText("Email address") as HTMLInputElement;
  const button = () => screen.getByRole("button", { name: /Subscrib/ }) as HTMLButtonElement;
  return { input, button };
}

describe("NewsletterSignup", () => {
  afterEach(() => {
    fireEvent.click(screen.getByText("clear toasts"));
    subscribe.mockReset();
  });

  it("has a required email field", () => {
    const { input } = setup();
    expect(input.type).toBe("email");
    expect(input.required).toBe(true);
  });

  it("submitting → 'Subscribing...' disabled → success toast and the field cleared", async () => {
    let resolve!: () => void;
    subscribe.mockReturnValue(new Promise<void>((r) => (resolve = r)));
    const { input, button } = setup();
    fireEvent.change(input, { target: { value: "ada@example.com" } });
    fireEvent.submit(input.form!);
    expect(subscribe).toHaveBeenCalledWith("ada@example.com", undefined); // no CAPTCHA token: the page asks for none
    expect(button().textContent).toBe("Subscribing...");
    expect(button().getAttribute("aria-disabled")).toBe("true"); // not disabled: focus stays on it
    await act(async () => resolve());
    expect(screen.getByRole("status").textContent).toContain("Subscribed!");
    expect(input.value).toBe("");
    expect(button().textContent).toBe("Subscribe");
    expect(button().hasAttribute("aria-disabled")).toBe(false);
    // The outcome stays under the form, read with the field, until the visitor types again.
    const note = document.getElementById(input.getAttribute("aria-describedby")!)!;
    expect(note.textContent).toBe("Subscribed!: Thanks for subscribing. The next issue is on its way to your inbox.");
    fireEvent.input(input, { target: { value: "b" } });
    expect(input.hasAttribute("aria-describedby")).toBe(false);
  });

  it("a rejection shows an error toast with its message and keeps the field", async () => {
    subscribe.mockRejectedValue(new Error("This address is already subscribed."));
    const { input, button } = setup();
    fireEvent.change(input, { target: { value: "ada@example.com" } });
    await act(async () => {
      fireEvent.submit(input.form!);
    });
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toContain("Error");
    expect(alert.textContent).toContain("This address is already subscribed.");
    expect(alert.getAttribute("data-variant")).toBe("destructive");
    expect(input.value).toBe("ada@example.com");
    expect(button().hasAttribute("aria-disabled")).toBe(false);
    expect(document.getElementById(input.getAttribute("aria-describedby")!)!.textContent).toBe("Error: This address is already subscribed.");
  });
});
