import { describe, expect, it } from "vitest";
import { INSPECTOR_PANE, SESSIONS_PANE, clampSize, readSize, sizeAfterKey, writeSize } from "./pane-sizes.ts";

describe("pane sizes", () => {
  it("keeps a size within the pane's bounds, and a size that is not a number becomes the default", () => {
    expect(clampSize(SESSIONS_PANE, 20)).toBe(SESSIONS_PANE.min);
    expect(clampSize(SESSIONS_PANE, 5000)).toBe(SESSIONS_PANE.max);
    expect(clampSize(SESSIONS_PANE, 301.6)).toBe(302);
    expect(clampSize(INSPECTOR_PANE, Number.NaN)).toBe(INSPECTOR_PANE.initial);
  });

  it("moves the separator the way the arrow points: a pane before it grows to the right, one after it shrinks", () => {
    expect(sizeAfterKey(SESSIONS_PANE, "before", 240, "ArrowRight", false)).toBe(256);
    expect(sizeAfterKey(SESSIONS_PANE, "before", 240, "ArrowLeft", true)).toBe(176);
    expect(sizeAfterKey(INSPECTOR_PANE, "after", 60, "ArrowLeft", false)).toBe(62);
    expect(sizeAfterKey(INSPECTOR_PANE, "after", 60, "ArrowRight", true)).toBe(50);
  });

  it("stops at the bounds, goes to them with Home and End and back to the default with Enter", () => {
    expect(sizeAfterKey(INSPECTOR_PANE, "after", 79, "ArrowLeft", true)).toBe(INSPECTOR_PANE.max);
    expect(sizeAfterKey(SESSIONS_PANE, "before", 300, "Home", false)).toBe(SESSIONS_PANE.min);
    expect(sizeAfterKey(SESSIONS_PANE, "before", 300, "End", false)).toBe(SESSIONS_PANE.max);
    expect(sizeAfterKey(SESSIONS_PANE, "before", 300, "Enter", false)).toBe(SESSIONS_PANE.initial);
    expect(sizeAfterKey(SESSIONS_PANE, "before", 300, "a", false)).toBeUndefined();
  });

  it("reads back what it wrote, and the default from nothing, from garbage or from a storage that throws", () => {
    const values = new Map<string, string>();
    const storage = {
      getItem: (key: string) => values.get(key) ?? null,
      setItem: (key: string, value: string) => void values.set(key, value),
    };
    expect(readSize(storage, "k", SESSIONS_PANE)).toBe(SESSIONS_PANE.initial);
    writeSize(storage, "k", 320);
    expect(readSize(storage, "k", SESSIONS_PANE)).toBe(320);
    values.set("k", "wide");
    expect(readSize(storage, "k", SESSIONS_PANE)).toBe(SESSIONS_PANE.initial);
    values.set("k", "9999");
    expect(readSize(storage, "k", SESSIONS_PANE)).toBe(SESSIONS_PANE.max);
    const throwing = {
      getItem: (): string => {
        throw new Error("denied");
      },
      setItem: (): void => {
        throw new Error("denied");
      },
    };
    expect(readSize(throwing, "k", INSPECTOR_PANE)).toBe(INSPECTOR_PANE.initial);
    expect(() => writeSize(throwing, "k", 40)).not.toThrow();
  });
});
