/**
 * The theme as shared client state: the footer choice reads it through
 * useTheme, the header toggle and the choice change it with setThemeChoice,
 * and it follows the system setting and other tabs live (as themeScript does
 * for the page before any island runs).
 */
import { useSyncExternalStore } from "react";
import {
  DARK_QUERY,
  THEME_STORAGE_KEY,
  applyTheme,
  readThemeChoice,
  resolveTheme,
  writeThemeChoice,
  type Theme,
  type ThemeChoice,
} from "./theme";

const listeners = new Set<() => void>();

function systemPrefersDark(): boolean {
  return window.matchMedia(DARK_QUERY).matches;
}

function current(): { choice: ThemeChoice; theme: Theme } {
  const choice = readThemeChoice(window.localStorage);
  return { choice, theme: resolveTheme(choice, systemPrefersDark()) };
}

function reapply(): void {
  applyTheme(document.documentElement, current().theme);
  listeners.forEach((l) => l());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (listeners.size === 1) {
    window.matchMedia(DARK_QUERY).addEventListener("change", reapply);
    window.addEventListener("storage", onStorage);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      window.matchMedia(DARK_QUERY).removeEventListener("change", reapply);
      window.removeEventListener("storage", onStorage);
    }
  };
}

function onStorage(event: StorageEvent): void {
  if (event.key === THEME_STORAGE_KEY || event.key === null) reapply();
}

export function setThemeChoice(choice: ThemeChoice): void {
  writeThemeChoice(window.localStorage, choice);
  reapply();
}

/** useTheme returns null until hydration (the server cannot know the theme), then the choice and the theme in effect. */
export function useTheme(): { choice: ThemeChoice; theme: Theme } | null {
  const snapshot = useSyncExternalStore(
    subscribe,
    () => {
      const { choice, theme } = current();
      return `${choice}:${theme}`;
    },
    () => null,
  );
  if (snapshot === null) return null;
  const [choice, theme] = snapshot.split(":") as [ThemeChoice, Theme];
  return { choice, theme };
}
