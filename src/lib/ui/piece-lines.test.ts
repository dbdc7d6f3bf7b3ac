import { describe, expect, it } from "vitest";
import { changedEnough, charsPerLine } from "./piece-lines.ts";

describe("charsPerLine", () => {
  it("fits fewer average characters on a line than its width holds, as words wrap whole", () => {
    const perLine = charsPerLine(800, 8);
    expect(perLine).toBeLessThan(100);
    expect(perLine).toBeGreaterThan(85);
    expect(charsPerLine(300, 8)).toBeCloseTo(((perLine ?? 0) * 300) / 800);
  });

  it("tells nothing before layout or without a font", () => {
    expect(charsPerLine(0, 8)).toBeUndefined();
    expect(charsPerLine(800, 0)).toBeUndefined();
    expect(charsPerLine(Number.NaN, 8)).toBeUndefined();
  });
});

describe("changedEnough", () => {
  it("replaces no estimate, or one more than 5% away, and keeps one that is near", () => {
    expect(changedEnough(undefined, 40)).toBe(true);
    expect(changedEnough(40, 41)).toBe(false);
    expect(changedEnough(40, 43)).toBe(true);
    expect(changedEnough(40, 37)).toBe(true);
  });
});
