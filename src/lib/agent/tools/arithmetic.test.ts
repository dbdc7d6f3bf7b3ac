import { describe, expect, it } from "vitest";
import { evaluateArithmetic, formatNumber } from "./arithmetic.ts";

describe("evaluateArithmetic", () => {
  it.each([
    ["1 + 2 * 3", 7],
    ["12 * (3 + 4)", 84],
    ["-(2 + 3) * 2", -10],
    ["2 ^ 3 ^ 2", 512],
    ["10 % 4", 2],
    ["1.5e2 / 3", 50],
    [".5 + .25", 0.75],
  ])("%s = %d", (expression, value) => {
    expect(evaluateArithmetic(expression)).toBe(value);
  });

  it.each([
    ["2 +", "expression ends too early"],
    ["(1 + 2", 'missing ")"'],
    ["2 $ 3", 'unexpected "$" at position 3'],
    ["1 / 0", "no finite value"],
    ["alert(1)", 'unexpected "a"'],
  ])("refuses %s", (expression, message) => {
    expect(() => evaluateArithmetic(expression)).toThrow(message);
  });

  it("formats away floating-point noise", () => {
    expect(formatNumber(0.1 + 0.2)).toBe("0.3");
  });
});
