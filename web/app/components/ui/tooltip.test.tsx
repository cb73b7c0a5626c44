import { describe, expect, it } from "vitest";
import { fireEvent, render, screen } from "@testing-library/react";
import { Tooltip } from "./tooltip";

function setup() {
  render(
    <>
      <Tooltip content="Successfully exited">{(trigger) => <span {...trigger}>Acquired</span>}</Tooltip>
      <button type="button">Elsewhere</button>
    </>,
  );
  const badge = screen.getByText("Acquired");
  const tip = document.getElementById(badge.getAttribute("aria-describedby")!)!;
  return { badge, tip };
}

describe("Tooltip", () => {
  it("describes a focusable trigger, hidden at first", () => {
    const { badge, tip } = setup();
    expect(badge.tabIndex).toBe(0);
    expect(tip.getAttribute("role")).toBe("tooltip");
    expect(tip.textContent).toBe("Successfully exited");
    expect(tip.hidden).toBe(true);
  });

  it("shows on keyboard focus and hides on blur", () => {
    const { badge, tip } = setup();
    fireEvent.focus(badge);
    expect(tip.hidden).toBe(false);
    expect(screen.getByRole("tooltip").textContent).toBe("Successfully exited");
    fireEvent.blur(badge);
    expect(tip.hidden).toBe(true);
  });

  it("hides on Escape while focused, and shows again on the next focus", () => {
    const { badge, tip } = setup();
    fireEvent.focus(badge);
    fireEvent.keyDown(document, { key: "Escape" });
    expect(tip.hidden).toBe(true);
    fireEvent.blur(badge);
    fireEvent.focus(badge);
    expect(tip.hidden).toBe(false);
  });

  it("shows on hover, hides when the pointer leaves or on Escape", () => {
    const { badge, tip } = setup();
    fireEvent.mouseEnter(badge.parentElement!);
    expect(tip.hidden).toBe(false);
    fireEvent.mouseLeave(badge.parentElement!);
    expect(tip.hidden).toBe(true);
    fireEvent.mouseEnter(badge.parentElement!);
    fireEvent.keyDown(document, { key: "Escape" });
    expect(tip.hidden).toBe(true);
  });
});
