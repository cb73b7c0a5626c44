import { afterEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_THEME_CHOICE, THEME_STORAGE_KEY, readThemeChoice, resolveTheme, themeScript, writeThemeChoice, type ThemeChoice } from "./theme";

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    data,
  };
}

const throwing = {
  getItem: () => {
    throw new Error("SecurityError");
  },
  setItem: () => {
    throw new Error("QuotaExceededError");
  },
};

describe("readThemeChoice", () => {
  it.each([
    { name: "light", stored: "light", want: "light" },
    { name: "dark", stored: "dark", want: "dark" },
    { name: "system", stored: "system", want: "system" },
    { name: "nothing stored", stored: undefined, want: "light" },
    { name: "invalid value", stored: "purple", want: "light" },
    { name: "wrong case", stored: "Dark", want: "light" },
  ])("$name → $want", ({ stored, want }) => {
    const storage = memoryStorage(stored === undefined ? {} : { [THEME_STORAGE_KEY]: stored });
    expect(readThemeChoice(storage)).toBe(want);
  });

  it("defaults to light when storage throws or is missing", () => {
    expect(DEFAULT_THEME_CHOICE).toBe("light");
    expect(readThemeChoice(throwing)).toBe("light");
    expect(readThemeChoice(undefined)).toBe("light");
  });
});

describe("writeThemeChoice", () => {
  it("stores the choice under 'theme'", () => {
    const storage = memoryStorage();
    expect(writeThemeChoice(storage, "system")).toBe(true);
    expect(storage.data.get("theme")).toBe("system");
  });
  it("reports a refusing storage instead of throwing", () => {
    expect(writeThemeChoice(throwing, "dark")).toBe(false);
  });
});

describe("resolveTheme", () => {
  it.each<{ choice: ThemeChoice; systemDark: boolean; want: string }>([
    { choice: "light", systemDark: true, want: "light" },
    { choice: "dark", systemDark: false, want: "dark" },
    { choice: "system", systemDark: true, want: "dark" },
    { choice: "system", systemDark: false, want: "light" },
  ])("$choice with system dark=$systemDark → $want", ({ choice, systemDark, want }) => {
    expect(resolveTheme(choice, systemDark)).toBe(want);
  });
});

describe("themeScript (runs before first paint)", () => {
  afterEach(() => {
    localStorage.clear();
    document.documentElement.className = "";
    vi.unstubAllGlobals();
  });

  it.each([
    { stored: null, systemDark: true },
    { stored: "light", systemDark: true },
    { stored: "dark", systemDark: false },
    { stored: "system", systemDark: true },
    { stored: "system", systemDark: false },
    { stored: "bogus", systemDark: true },
  ])("agrees with resolveTheme for stored=$stored, system dark=$systemDark", ({ stored, systemDark }) => {
    if (stored !== null) localStorage.setItem("theme", stored);
    vi.stubGlobal("matchMedia", (q: string) => ({ matches: q === "(prefers-color-scheme: dark)" && systemDark, addEventListener: () => {} }));
    new Function(themeScript)();
    const want = resolveTheme(readThemeChoice(localStorage), systemDark);
    expect(document.documentElement.classList.contains("dark")).toBe(want === "dark");
    expect(document.documentElement.style.colorScheme).toBe(want);
  });

  it("follows a change of the system setting and a choice made in another tab", () => {
    localStorage.setItem("theme", "system");
    const system = { matches: false, listener: () => {} };
    vi.stubGlobal("matchMedia", () => ({
      get matches() {
        return system.matches;
      },
      addEventListener: (_: string, l: () => void) => (system.listener = l),
    }));
    new Function(themeScript)();
    expect(document.documentElement.classList.contains("dark")).toBe(false);

    system.matches = true;
    system.listener();
    expect(document.documentElement.classList.contains("dark")).toBe(true);

    localStorage.setItem("theme", "light");
    window.dispatchEvent(new StorageEvent("storage", { key: "theme" }));
    expect(document.documentElement.classList.contains("dark")).toBe(false);
    expect(document.documentElement.style.colorScheme).toBe("light");
  });
});
