/**
 * The colour theme: the visitor's choice (light, dark or system) is stored in
 * localStorage under "theme"; "system" follows prefers-color-scheme live.
 */

export type ThemeChoice = "light" | "dark" | "system";
export type Theme = "light" | "dark";

export const THEME_STORAGE_KEY = "theme";
export const DEFAULT_THEME_CHOICE: ThemeChoice = "light";
export const DARK_QUERY = "(prefers-color-scheme: dark)";

export function isThemeChoice(value: unknown): value is ThemeChoice {
  return value === "light" || value === "dark" || value === "system";
}

/** readThemeChoice returns the stored choice, or the default when there is none, it is invalid, or storage is unavailable. */
export function readThemeChoice(storage: Pick<Storage, "getItem"> | undefined): ThemeChoice {
  try {
    const value = storage?.getItem(THEME_STORAGE_KEY);
    return isThemeChoice(value) ? value : DEFAULT_THEME_CHOICE;
  } catch {
    return DEFAULT_THEME_CHOICE;
  }
}

/** writeThemeChoice stores the choice; it reports false when storage refuses (private mode, quota). */
export function writeThemeChoice(storage: Pick<Storage, "setItem"> | undefined, choice: ThemeChoice): boolean {
  try {
    storage?.setItem(THEME_STORAGE_KEY, choice);
    return storage !== undefined;
  } catch {
    return false;
  }
}

export function resolveTheme(choice: ThemeChoice, systemPrefersDark: boolean): Theme {
  if (choice === "system") return systemPrefersDark ? "dark" : "light";
  return choice;
}

/** applyTheme sets the class and color-scheme the stylesheet keys on. */
export function applyTheme(root: HTMLElement, theme: Theme): void {
  root.classList.toggle("dark", theme === "dark");
  root.style.colorScheme = theme;
}

/**
 * themeScript runs in <head> before first paint, so a dark visitor never sees
 * a light flash, and then keeps the page's theme in step with the system
 * setting and with choices made in other tabs, with no island running. It
 * repeats readThemeChoice/resolveTheme/applyTheme in a few bytes;
 * theme.test.ts runs it to prove the two agree. Its hash is allowed by the
 * Content-Security-Policy the server computes from the built pages.
 */
export const themeScript = `(function(){var k=${JSON.stringify(THEME_STORAGE_KEY)},q=matchMedia(${JSON.stringify(
  DARK_QUERY,
)}),e=document.documentElement;function a(){var c=null;try{c=localStorage.getItem(k)}catch(_){}var d=c==="dark"||(c==="system"&&q.matches);e.classList.toggle("dark",d);e.style.colorScheme=d?"dark":"light"}a();q.addEventListener("change",a);addEventListener("storage",function(v){if(v.key===k||v.key===null)a()})})()`;
