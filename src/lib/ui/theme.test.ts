import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseThemeChoice, THEME_KEY } from "./theme.ts";
import { ThemePreference } from "./theme.svelte.ts";

function memoryStorage(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  return {
    values,
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    removeItem: (key: string) => void values.delete(key),
  };
}

/** Run public/theme-boot.js as the browser would, against the given storage. */
function runBootScript(storage: ReturnType<typeof memoryStorage>): DOMStringMap {
  const source = readFileSync(new URL("../../../public/theme-boot.js", import.meta.url), "utf8");
  const dataset: DOMStringMap = {};
  new Function("localStorage", "document", source)(storage, { documentElement: { dataset } });
  return dataset;
}

describe("theme choice", () => {
  it("reads unknown or missing values as following the system", () => {
    expect(parseThemeChoice(null)).toBe("system");
    expect(parseThemeChoice("sepia")).toBe("system");
    expect(parseThemeChoice("dark")).toBe("dark");
  });

  it("is remembered, applied to the root, and System removes the override", () => {
    const storage = memoryStorage();
    const root = { dataset: {} as DOMStringMap };
    const theme = new ThemePreference({ storage, root });
    expect(theme.choice).toBe("system");

    theme.choose("dark");
    expect(root.dataset.theme).toBe("dark");
    expect(storage.values.get(THEME_KEY)).toBe("dark");
    expect(new ThemePreference({ storage, root: { dataset: {} } }).choice).toBe("dark");

    theme.choose("system");
    expect(root.dataset.theme).toBeUndefined();
    expect(storage.values.has(THEME_KEY)).toBe(false);
  });

  it("still works for the page when storage refuses", () => {
    const refusing = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("denied");
      },
      removeItem: () => undefined,
    };
    const root = { dataset: {} as DOMStringMap };
    const theme = new ThemePreference({ storage: refusing, root });
    theme.choose("light");
    expect(root.dataset.theme).toBe("light");
  });

  it("is applied before the first paint by the boot script, which agrees with ThemePreference", () => {
    for (const choice of ["light", "dark", "system"] as const) {
      const storage = memoryStorage();
      new ThemePreference({ storage, root: { dataset: {} } }).choose(choice);
      expect(runBootScript(storage).theme).toBe(choice === "system" ? undefined : choice);
    }
    expect(runBootScript(memoryStorage({ [THEME_KEY]: "<script>" })).theme).toBeUndefined();
  });
});
