import { describe, expect, it } from "vitest";
import { compose } from "./composition.ts";
import { describeBasis, describeWindow, percent } from "./describe.ts";
import { assistant, usage, user } from "./anatomy.test-support.ts";

describe("the anatomy's words", () => {
  it("says whose number a total is", () => {
    expect(describeBasis(compose([user("x".repeat(40))], [], usage(100, 5, 900, 20)))).toMatch(
      /^1,020 input tokens, the provider's count \(900 read from the cache, 100 uncached, 20 written to it\)/,
    );
    expect(describeBasis(compose([user("x".repeat(35))], []))).toBe(
      "≈ 10 tokens, an estimate (characters ÷ 3.5, pi-ai's estimator): no reply with usage to anchor on.",
    );
    const anchored = compose([user("hi"), assistant("ok", {}, 2, usage(50, 5)), user("x".repeat(35))], []);
    expect(describeBasis(anchored)).toMatch(
      /^≈ 65 tokens, an estimate: the last reply's usage \(55, message 2\)/,
    );
  });

  it("says when the window is unknown", () => {
    expect(describeWindow(1_000, undefined)).toMatch(/unknown/);
    expect(describeWindow(32_000, 128_000)).toBe("32,000 of the model's 128,000-token context window (25%).");
  });

  it("rounds shares for people", () => {
    expect([percent(0), percent(0.0004), percent(0.0123), percent(0.5)]).toEqual([
      "0%",
      "<0.1%",
      "1.2%",
      "50%",
    ]);
  });
});
