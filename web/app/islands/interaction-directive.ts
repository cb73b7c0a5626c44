/**
 * client:interaction: the island hydrates when the visitor is about to use
 * it (the pointer reaches it, a touch or a press starts on it, focus enters
 * it) or uses it (any input, change, key or submission inside it, by any
 * means: a select changed by assistive technology fires no pointer or focus
 * event), when the browser has restored a changed form into it (Back and
 * Forward), or when it is woken by name (wake.ts), and not before: a page's
 * load runs no React at all (decision 0007).
 *
 * What the visitor did in the meantime is not lost. What its form controls
 * show (typed, pasted, chosen, restored) its first render takes as its state
 * (lib/early-input.ts). A click on one of its buttons is held and made again
 * once React has the island (React hydrates a root at once for a click); the
 * hover and the focus that woke it are announced again, so a tooltip or a
 * focus style driven by React shows.
 * Links and form submissions need no JavaScript and go their native way.
 * A held button carries aria-busy (and app.css's progress cue) meanwhile.
 */
import type { ClientDirective } from "astro";
import { changedFromPrerendered } from "../lib/early-input";
import { WAKE_EVENT, wasWoken } from "./wake";

/** What wakes the island: the visitor about to use it, or using it. */
const intents = ["pointerover", "pointerdown", "touchstart", "focusin", "input", "change", "keydown", "submit"] as const;

/** changedControl: a form control in el shows something other than what was prerendered (a restored form). */
const changedControl = (el: Element) => [...el.querySelectorAll("input,select,textarea")].some(changedFromPrerendered);

/** pathFrom lists the child indexes that lead from root to node, to find its match again if React replaced it. */
function pathFrom(root: Element, node: Element): number[] {
  const path: number[] = [];
  for (let n: Element | null = node; n && n !== root; n = n.parentElement) {
    path.unshift(Array.prototype.indexOf.call(n.parentElement?.children ?? [], n));
  }
  return path;
}

function follow(root: Element, path: number[]): Element | null {
  let n: Element | null = root;
  for (const i of path) n = n?.children[i] ?? null;
  return n;
}

const interaction: ClientDirective = (load, options, el) => {
  const value = options.value as unknown as { wake?: string } | boolean | string;
  const wake = typeof value === "object" && value ? value.wake : undefined;
  let started = false;
  let heldClick: { node: Element; path: number[] } | null = null;

  const holdClick = (e: Event) => {
    const button = e.target instanceof Element ? e.target.closest('button[type="button"]') : null;
    if (!button || !el.contains(button)) return;
    e.preventDefault();
    e.stopPropagation();
    // Until React has the island, the button shows that the click was taken.
    button.setAttribute("aria-busy", "true");
    heldClick = { node: button, path: pathFrom(el, button) };
  };

  const onWake = (e: Event) => {
    if ((e as CustomEvent<string>).detail === wake) void start();
  };

  const start = async () => {
    if (started) return;
    started = true;
    for (const type of intents) el.removeEventListener(type, start, true);
    document.removeEventListener(WAKE_EVENT, onWake);
    try {
      await (await load())();
    } finally {
      el.removeEventListener("click", holdClick, true);
    }
    replay();
  };

  const replay = () => {
    const focused = document.activeElement;
    if (focused && focused !== el && el.contains(focused)) focused.dispatchEvent(new FocusEvent("focusin", { bubbles: true }));
    const hovered = el.querySelectorAll(":hover");
    hovered[hovered.length - 1]?.dispatchEvent(new MouseEvent("mouseover", { bubbles: true }));
    if (heldClick) {
      heldClick.node.removeAttribute("aria-busy");
      const target = heldClick.node.isConnected ? heldClick.node : follow(el, heldClick.path);
      heldClick = null;
      target?.removeAttribute("aria-busy");
      if (target instanceof HTMLElement) target.click();
    }
  };

  el.addEventListener("click", holdClick, true);
  for (const type of intents) el.addEventListener(type, start, { capture: true, passive: true });
  // The browser restores a form as the page loads, without an event.
  if (changedControl(el)) void start();
  else addEventListener("pageshow", () => changedControl(el) && start(), { once: true });
  if (wake) {
    if (wasWoken(wake)) void start();
    else document.addEventListener(WAKE_EVENT, onWake);
  }
};

export default interaction;
