import { afterEach, describe, expect, it } from "vitest";
import { earlyChecked, earlyValue } from "./early-input";

afterEach(() => {
  document.body.innerHTML = "";
});

/** prerendered puts the island's controls into the page as the server rendered them. */
function prerendered() {
  document.body.innerHTML = `
    <input id="q" type="search" value="">
    <textarea id="message"></textarea>
    <select id="category"><option value="all" selected>All</option><option value="podcast">Podcasts</option></select>
    <input id="agree" type="checkbox">`;
  const get = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
  return {
    q: get<HTMLInputElement>("q"),
    message: get<HTMLTextAreaElement>("message"),
    category: get<HTMLSelectElement>("category"),
    agree: get<HTMLInputElement>("agree"),
  };
}

describe("early input", () => {
  it("is nothing while the controls show what was prerendered, or for an id not in the page", () => {
    prerendered();
    for (const id of ["q", "message", "category", "missing"]) expect(earlyValue(id), id).toBeUndefined();
    expect(earlyChecked("agree")).toBeUndefined();
  });

  it("is what was typed, pasted, chosen or checked before the island ran", () => {
    const c = prerendered();
    c.q.value = "playbook";
    c.message.value = "Hello";
    c.category.value = "podcast";
    c.agree.checked = true;
    expect(earlyValue("q")).toBe("playbook");
    expect(earlyValue("message")).toBe("Hello");
    expect(earlyValue("category")).toBe("podcast");
    expect(earlyChecked("agree")).toBe(true);
  });

  it("is the prerendered value chosen again after another, and an emptied field", () => {
    document.body.innerHTML = `<input id="q" value="old"><select id="s"><option value="a">A</option><option value="b" selected>B</option></select>`;
    (document.getElementById("q") as HTMLInputElement).value = "";
    (document.getElementById("s") as HTMLSelectElement).value = "a";
    expect(earlyValue("q")).toBe("");
    expect(earlyValue("s")).toBe("a");
  });
});
