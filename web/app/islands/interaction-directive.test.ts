import { afterEach, describe, expect, it, vi } from "vitest";
import interaction from "./interaction-directive";
import { wakeIsland } from "./wake";

/** island puts an island element with a button and a link into the page and starts the directive on it. */
function island(value: unknown = true, restore?: (el: HTMLElement) => void) {
  const el = document.createElement("astro-island");
  el.innerHTML = `<div><button type="button">Go</button><a href="#x">Link</a><form><button>Send</button></form></div>
    <form><input type="search" value=""><select><option selected>all</option><option>podcast</option></select><input type="checkbox"></form>`;
  document.body.append(el);
  restore?.(el);
  let resolveModule!: () => void;
  const moduleLoaded = new Promise<void>((r) => (resolveModule = r));
  const hydrate = vi.fn(async () => {});
  const load = vi.fn(async () => {
    await moduleLoaded;
    return hydrate;
  });
  interaction(load, { name: "Test", value: value as string }, el);
  const button = el.querySelector<HTMLButtonElement>('button[type="button"]')!;
  return { el, button, load, hydrate, resolveModule };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

afterEach(() => {
  document.body.innerHTML = "";
  delete window.__wakes;
});

describe("client:interaction", () => {
  it("loads nothing until the visitor reaches the island", async () => {
    const { load } = island();
    document.body.dispatchEvent(new Event("pointerover", { bubbles: true }));
    await settle();
    expect(load).not.toHaveBeenCalled();
  });

  // Any use, by any means: a select changed by assistive technology or a paste fires no pointer or focus event.
  it.each(["pointerover", "pointerdown", "touchstart", "focusin", "input", "change", "keydown", "submit"])("starts on %s inside the island, once", async (type) => {
    const { el, button, load, hydrate, resolveModule } = island();
    button.dispatchEvent(new Event(type, { bubbles: true }));
    el.dispatchEvent(new Event(type, { bubbles: true }));
    resolveModule();
    await settle();
    expect(load).toHaveBeenCalledTimes(1);
    expect(hydrate).toHaveBeenCalledTimes(1);
  });

  it.each<[string, (el: HTMLElement) => void]>([
    ["text", (el) => (el.querySelector("input")!.value = "playbook")],
    ["a select", (el) => (el.querySelector("select")!.value = "podcast")],
    ["a checkbox", (el) => (el.querySelector<HTMLInputElement>("input[type=checkbox]")!.checked = true)],
  ])("starts at once when the browser restored changed %s into it (Back, Forward: no event)", async (_, restore) => {
    const { load } = island(true, restore);
    await settle();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("waits while the form controls show what was prerendered", async () => {
    const { load } = island();
    window.dispatchEvent(new PageTransitionEvent("pageshow"));
    await settle();
    expect(load).not.toHaveBeenCalled();
  });

  it("starts when the form is restored after it started, by the page's show", async () => {
    const { el, load } = island();
    el.querySelector("select")!.value = "podcast";
    window.dispatchEvent(new PageTransitionEvent("pageshow"));
    await settle();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("holds a click on a button until hydration and makes it again once", async () => {
    const { el, button, hydrate, resolveModule } = island();
    const clicks = vi.fn();
    button.dispatchEvent(new Event("pointerdown", { bubbles: true }));
    const early = new MouseEvent("click", { bubbles: true, cancelable: true });
    button.dispatchEvent(early);
    expect(early.defaultPrevented).toBe(true);
    expect(button.getAttribute("aria-busy")).toBe("true"); // the click shows as taken

    el.addEventListener("click", clicks); // what React's root listener would be
    resolveModule();
    await settle();
    expect(hydrate).toHaveBeenCalled();
    expect(clicks).toHaveBeenCalledTimes(1);
    expect(button.hasAttribute("aria-busy")).toBe(false);

    button.click(); // once running, clicks pass straight through
    expect(clicks).toHaveBeenCalledTimes(2);
  });

  it("lets links and form submissions go their native way", async () => {
    const { el } = island();
    el.dispatchEvent(new Event("pointerdown", { bubbles: true }));
    for (const target of [el.querySelector("a")!, el.querySelector("form button")!]) {
      const click = new MouseEvent("click", { bubbles: true, cancelable: true });
      target.addEventListener("click", (e) => e.preventDefault(), { once: true }); // jsdom would navigate or submit
      const seen = vi.fn();
      el.addEventListener("click", seen, { once: true });
      target.dispatchEvent(click);
      expect(seen).toHaveBeenCalled(); // not stopped by the directive
    }
  });

  it("announces again the focus that woke it", async () => {
    const { el, button, resolveModule } = island();
    const focusins = vi.fn();
    button.focus();
    expect(document.activeElement).toBe(button);
    el.addEventListener("focusin", focusins);
    resolveModule();
    await settle();
    expect(focusins).toHaveBeenCalledTimes(1);
  });

  it("wakes by name, also when asked before the directive started", async () => {
    const first = island({ wake: "toaster" });
    wakeIsland("other");
    first.resolveModule();
    await settle();
    expect(first.load).not.toHaveBeenCalled();
    wakeIsland("toaster");
    await settle();
    expect(first.hydrate).toHaveBeenCalledTimes(1);

    wakeIsland("search");
    const late = island({ wake: "search" });
    late.resolveModule();
    await settle();
    expect(late.hydrate).toHaveBeenCalledTimes(1);
  });
});
