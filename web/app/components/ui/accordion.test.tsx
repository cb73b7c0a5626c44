import { describe, expect, it } from "vitest";
import { fireEvent, render, screen } from "@testing-library/react";
import { Accordion } from "./accordion";

const items = [
  { id: "one", title: "First question", content: "First answer" },
  { id: "two", title: "Second question", content: "Second answer" },
  { id: "three", title: "Third question", content: "Third answer" },
];

function setup() {
  render(<Accordion items={items} />);
  const buttons = items.map((i) => screen.getByRole("button", { name: i.title }));
  return { buttons: buttons as [HTMLElement, HTMLElement, HTMLElement] };
}

/** openPanels lists the titles of the visible regions. */
function openPanels(): string[] {
  return screen.queryAllByRole("region").map((r) => document.getElementById(r.getAttribute("aria-labelledby") ?? "")?.textContent ?? "");
}

describe("Accordion", () => {
  it("starts closed; each header is a button in a heading that controls its panel", () => {
    const { buttons } = setup();
    expect(screen.getAllByRole("heading", { level: 3 })).toHaveLength(3);
    for (const b of buttons) {
      expect(b.getAttribute("aria-expanded")).toBe("false");
      const panel = document.getElementById(b.getAttribute("aria-controls")!)!;
      expect(panel.getAttribute("role")).toBe("region");
      expect(panel.getAttribute("aria-labelledby")).toBe(b.id);
      expect(panel.hidden).toBe(true);
    }
    expect(openPanels()).toEqual([]);
  });

  it("opens an item, switches to another (one open at a time), and closes the open one", () => {
    const { buttons } = setup();
    fireEvent.click(buttons[0]);
    expect(buttons[0].getAttribute("aria-expanded")).toBe("true");
    expect(screen.getByRole("region", { name: "First question" }).textContent).toBe("First answer");
    expect(openPanels()).toEqual(["First question"]);

    fireEvent.click(buttons[1]);
    expect(buttons[0].getAttribute("aria-expanded")).toBe("false");
    expect(buttons[1].getAttribute("aria-expanded")).toBe("true");
    expect(openPanels()).toEqual(["Second question"]);

    fireEvent.click(buttons[1]);
    expect(buttons[1].getAttribute("aria-expanded")).toBe("false");
    expect(openPanels()).toEqual([]);
  });

  it("is keyboard operable: arrows, Home and End move between headers; buttons toggle natively", () => {
    const { buttons } = setup();
    buttons[0].focus();
    fireEvent.keyDown(buttons[0], { key: "ArrowDown" });
    expect(document.activeElement).toBe(buttons[1]);
    fireEvent.keyDown(buttons[1], { key: "End" });
    expect(document.activeElement).toBe(buttons[2]);
    fireEvent.keyDown(buttons[2], { key: "ArrowDown" });
    expect(document.activeElement).toBe(buttons[0]);
    fireEvent.keyDown(buttons[0], { key: "ArrowUp" });
    expect(document.activeElement).toBe(buttons[2]);
    fireEvent.keyDown(buttons[2], { key: "Home" });
    expect(document.activeElement).toBe(buttons[0]);
    // Enter and Space activate a <button> natively (a click); it must be a real button.
    expect(buttons[0].tagName).toBe("BUTTON");
    expect(buttons[0].getAttribute("type")).toBe("button");
  });
});
