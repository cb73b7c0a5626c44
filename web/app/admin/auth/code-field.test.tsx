import { describe, expect, it } from "vitest";
import { useState } from "react";
import { fireEvent, render, screen } from "@testing-library/react";
import { consoleTitle, signInCopy } from "~/content/console";
import { CodeField, isCode, normaliseCode } from "./auth-card";

describe("normaliseCode", () => {
  it.each([
    ["434210", "434210"],
    ["    434210", "434210"], // the mail's indented line, pasted as it stands
    [" 434 210 ", "434210"],
    ["434-210", "434210"],
    ["434 – 210", "434210"],
    ["\t434210\n", "434210"],
    ["434\u00a0210", "434210"], // a no-break space from a rich-text mail
    ["４３４２１０", "434210"], // full-width digits from an input method
    ["4342101", "434210"], // a seventh digit is not kept, as with a full field
    ["12 34", "1234"], // too short stays short: the field says so on submit
    ["", ""],
    ["code:", ""],
  ])("keeps the digits of %j", (raw, want) => {
    expect(normaliseCode(raw)).toBe(want);
  });

  it("takes a whole code only", () => {
    expect(isCode("434210")).toBe(true);
    expect(isCode("43421")).toBe(false);
    expect(isCode(" 434210")).toBe(false);
    expect(isCode("4342100")).toBe(false);
  });
});

function Field() {
  const [code, setCode] = useState("");
  return <CodeField id="code" label={signInCopy.codeLabel} value={code} onChange={setCode} describedBy="hint" />;
}

describe("CodeField", () => {
  it("has no maxlength that would cut a pasted code before its spaces are gone, and keeps the 6 digits of one", () => {
    render(<Field />);
    const input = screen.getByLabelText(signInCopy.codeLabel) as HTMLInputElement;
    expect(input.hasAttribute("maxlength")).toBe(false);
    expect(input.getAttribute("inputmode")).toBe("numeric");
    expect(input.getAttribute("autocomplete")).toBe("one-time-code");
    expect(input.getAttribute("pattern")).toBe("[0-9]{6}");
    expect(input.getAttribute("aria-describedby")).toBe("hint");
    fireEvent.change(input, { target: { value: "    434210" } });
    expect(input.value).toBe("434210");
    fireEvent.change(input, { target: { value: " 434 210 " } });
    expect(input.value).toBe("434210");
    fireEvent.change(input, { target: { value: "434-210" } });
    expect(input.value).toBe("434210");
  });
});

describe("consoleTitle", () => {
  it("names the screen, then the console and the studio", () => {
    expect(consoleTitle("Inbox")).toBe("Inbox | Staff console | Meridian Studio");
    expect(consoleTitle()).toBe("Staff console | Meridian Studio");
  });
});
