import { describe, expect, it } from "vitest";
import { apportion } from "./apportion.ts";

describe("apportion", () => {
  it("splits a total into whole parts that add up to it exactly", () => {
    const parts = apportion([1, 1, 1], 100);
    expect(parts.reduce((sum, part) => sum + part, 0)).toBe(100);
    expect(parts).toEqual([34, 33, 33]);
  });

  it("follows the weights", () => {
    expect(apportion([300, 100], 8)).toEqual([6, 2]);
    expect(apportion([0, 5, 0], 7)).toEqual([0, 7, 0]);
  });

  it("gives nothing when there is nothing to weigh or to split", () => {
    expect(apportion([], 10)).toEqual([]);
    expect(apportion([0, 0], 10)).toEqual([0, 0]);
    expect(apportion([1, 2], 0)).toEqual([0, 0]);
  });
});
