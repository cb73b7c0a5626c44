import { afterEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, render, screen } from "@testing-library/react";
import { TOAST_DURATION_MS, TOAST_LIMIT, Toaster, dismissToast, toast, useToasts } from "./toast";

function Probe() {
  return <span data-testid="count">{useToasts().length}</span>;
}

describe("toast", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("shows at most three, newest kept, and each leaves after five seconds", () => {
    vi.useFakeTimers();
    render(
      <>
        <Toaster />
        <Probe />
      </>,
    );
    act(() => {
      for (let i = 1; i <= TOAST_LIMIT + 1; i++) toast({ title: `Toast ${i}` });
    });
    expect(screen.getByTestId("count").textContent).toBe(String(TOAST_LIMIT));
    expect(screen.queryByText("Toast 1")).toBeNull();
    expect(screen.getByText("Toast 4")).toBeTruthy();
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS));
    expect(screen.getByTestId("count").textContent).toBe("0");
  });

  it("announces errors as alerts and others as status", () => {
    render(<Toaster />);
    let id = 0;
    act(() => {
      toast({ title: "Message sent!", description: "We'll get back to you as soon as possible." });
      id = toast({ title: "Error", description: "Failed to send message. Please try again.", variant: "destructive" });
    });
    expect(screen.getByRole("alert").textContent).toContain("Failed to send message. Please try again.");
    expect(screen.getByRole("status").textContent).toContain("Message sent!");
    act(() => dismissToast(id));
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("waits while the pointer is over it or focus is in it, then takes what is left of its five seconds", () => {
    vi.useFakeTimers();
    render(<Toaster />);
    act(() => {
      toast({ title: "Subscribed!" });
    });
    const list = screen.getByRole("list");
    const dismiss = () => screen.getByText("Subscribed!").closest("li")!.querySelector("button")!;
    act(() => vi.advanceTimersByTime(2000));
    fireEvent.mouseEnter(list);
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS * 3));
    expect(screen.queryByText("Subscribed!")).not.toBeNull();
    fireEvent.mouseLeave(list);
    fireEvent.focus(dismiss());
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS * 3));
    expect(screen.queryByText("Subscribed!")).not.toBeNull();
    fireEvent.blur(dismiss());
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 2000 - 1));
    expect(screen.queryByText("Subscribed!")).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText("Subscribed!")).toBeNull();
  });
});
