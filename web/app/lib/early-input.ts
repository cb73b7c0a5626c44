/**
 * What a visitor typed or chose in an island's prerendered form controls
 * before the island ran: typed or pasted text, a select or a checkbox
 * changed, or a form the browser restored on Back and Forward. The island's
 * first render (the one that hydrates it) takes these as its state, so React
 * never puts the prerendered value back (islands/interaction-directive.ts
 * wakes the island on such input).
 *
 * Read them in a useState initializer, with the control's id from useId
 * (the same on the server and in the browser): they are undefined while
 * prerendering, and when the control still shows what was prerendered.
 * Then call useKeepTyped (lib/keep-typed.ts) for the text fields: the
 * visitor may go on typing while React hydrates. (This module stays free of
 * React: the inline island directive is built from it.)
 */

/** control is the input, select or text area with this id (typed as an input: the properties read are common to all three). */
function control(id: string): HTMLInputElement | undefined {
  const el = typeof document === "undefined" ? null : document.getElementById(id);
  return el && /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName) ? (el as HTMLInputElement) : undefined;
}

const isCheckable = (el: Element) => (el as HTMLInputElement).type === "checkbox" || (el as HTMLInputElement).type === "radio";

/**
 * changedFromPrerendered: the form control (input, select, text area) shows
 * something other than what its HTML says: typed, chosen, or restored. It is
 * part of the inline directive's few bytes, hence no instanceof.
 */
export function changedFromPrerendered(el: Element): boolean {
  const c = el as HTMLInputElement & Partial<Pick<HTMLSelectElement, "options">>;
  if (c.options) return [...c.options].some((o) => o.selected !== o.defaultSelected);
  return isCheckable(c) ? c.checked !== c.defaultChecked : c.value !== c.defaultValue;
}

/** earlyValue is the text of an input or text area, or the value of a select, when the visitor changed it. */
export function earlyValue(id: string): string | undefined {
  const el = control(id);
  return el && !isCheckable(el) && changedFromPrerendered(el) ? el.value : undefined;
}

/** earlyChecked is whether a checkbox or radio button is checked, when the visitor changed it. */
export function earlyChecked(id: string): boolean | undefined {
  const el = control(id);
  return el && isCheckable(el) && changedFromPrerendered(el) ? el.checked : undefined;
}

