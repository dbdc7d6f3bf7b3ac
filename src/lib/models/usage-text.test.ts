import { describe, expect, it } from "vitest";
import type { TokenCounts } from "./usage.ts";
import { usageLine, usageParts } from "./usage-text.ts";

const counts = (change: Partial<TokenCounts> = {}): TokenCounts => ({
  input: 120,
  cacheRead: 0,
  cacheWrite: 0,
  output: 30,
  outputEstimated: false,
  cost: 0,
  ...change,
});

describe("usage words", () => {
  it("names input, cached input, cache writes and output separately, never adding them up", () => {
    expect(usageParts(counts({ input: 0, cacheRead: 12_345, cacheWrite: 40 }))).toEqual([
      "in 0",
      "cached 12.3k",
      "cache write 40",
      "out 30",
    ]);
    expect(usageParts(counts())).toEqual(["in 120", "out 30"]);
  });

  it("marks an estimated output as an estimate", () => {
    expect(usageParts(counts({ output: 17, outputEstimated: true }))).toEqual([
      "in 120",
      "out ≈ 17 (estimate)",
    ]);
  });

  it("ends the line with the cost", () => {
    expect(usageLine(counts({ cost: 0.0123 }))).toBe("in 120 · out 30 · $0.01");
  });
});
