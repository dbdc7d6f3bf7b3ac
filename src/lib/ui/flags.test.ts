import { describe, expect, it } from "vitest";
import { localFlags } from "./flags.ts";
import { ShortcutPreference } from "./shortcut-preference.svelte.ts";

function memoryStorage() {
  const values = new Map<string, string>();
  return {
    values,
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
  };
}

describe("remembered flags", () => {
  it("read the fallback until written, then what was written", () => {
    const flags = localFlags(memoryStorage());
    expect(flags.read("a", true)).toBe(true);
    flags.write("a", false);
    expect(flags.read("a", true)).toBe(false);
  });

  it("fall back quietly when storage is missing or refuses", () => {
    expect(localFlags(undefined).read("a", true)).toBe(true);
    const refusing = localFlags({
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("denied");
      },
    });
    expect(refusing.read("a", false)).toBe(false);
    expect(() => refusing.write("a", true)).not.toThrow();
  });

  it("keep the single-key shortcut switch across visits", () => {
    const storage = memoryStorage();
    const preference = new ShortcutPreference(localFlags(storage));
    expect(preference.singleKeys).toBe(true);
    preference.setSingleKeys(false);
    expect(new ShortcutPreference(localFlags(storage)).singleKeys).toBe(false);
  });
});
