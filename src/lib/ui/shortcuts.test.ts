import { describe, expect, it } from "vitest";
import { SHEET } from "./shortcut-sheet.ts";
import { shortcutFor, SINGLE_KEYS, type KeyContext } from "./shortcuts.ts";

const base: KeyContext = {
  key: "",
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  inTextField: false,
  inOverlay: false,
  running: false,
  singleKeysEnabled: true,
};

describe("keyboard shortcuts", () => {
  it("map single keys to actions outside text fields", () => {
    expect(shortcutFor({ ...base, key: "?" })).toBe("help");
    expect(shortcutFor({ ...base, key: "/" })).toBe("composer");
    expect(shortcutFor({ ...base, key: "i" })).toBe("inspector");
    expect(shortcutFor({ ...base, key: "n" })).toBe("inject");
    expect(shortcutFor({ ...base, key: "a" })).toBe("approval");
    expect(shortcutFor({ ...base, key: "q" })).toBeUndefined();
    expect(shortcutFor({ ...base, key: "constructor" })).toBeUndefined();
  });

  it("leave typing alone: nothing fires in a text field, with a modifier, or when turned off", () => {
    expect(shortcutFor({ ...base, key: "i", inTextField: true })).toBeUndefined();
    expect(shortcutFor({ ...base, key: "i", ctrlKey: true })).toBeUndefined();
    expect(shortcutFor({ ...base, key: "i", singleKeysEnabled: false })).toBeUndefined();
  });

  it("stop a run with Escape, even from the composer, but never steal Escape from a dialog or menu", () => {
    expect(shortcutFor({ ...base, key: "Escape", running: true, inTextField: true })).toBe("stop");
    expect(shortcutFor({ ...base, key: "Escape", running: true, singleKeysEnabled: false })).toBe("stop");
    expect(shortcutFor({ ...base, key: "Escape", running: false })).toBeUndefined();
    expect(shortcutFor({ ...base, key: "Escape", running: true, inOverlay: true })).toBeUndefined();
  });

  it("are all in the sheet, with the keys that trigger them", () => {
    for (const [key, action] of Object.entries(SINGLE_KEYS)) {
      const row = SHEET.find((candidate) => candidate.action === action);
      expect(row, action).toBeDefined();
      expect(row?.keys).toEqual([key]);
      expect(row?.singleKey).toBe(true);
    }
    expect(SHEET.find((row) => row.action === "stop")?.keys).toEqual(["Esc"]);
  });
});
