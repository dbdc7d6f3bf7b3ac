import { describe, expect, it } from "vitest";
import { MAX_NESTING_DEPTH, nestsDeeperThan } from "./nesting.ts";

/** `{"a": {"a": … }}` nested `levels` deep, built without recursion. */
function nested(levels: number): unknown {
  let value: unknown = "leaf";
  for (let level = 0; level < levels; level++) value = level % 2 === 0 ? { a: value } : [value];
  return value;
}

describe("nestsDeeperThan", () => {
  it("counts objects and arrays as levels, and leaves alone values within the limit", () => {
    expect(nestsDeeperThan("text", 0)).toBe(false);
    expect(nestsDeeperThan({}, 0)).toBe(true);
    expect(nestsDeeperThan({ a: [] }, 2)).toBe(false);
    expect(nestsDeeperThan({ a: [] }, 1)).toBe(true);
    expect(nestsDeeperThan(nested(MAX_NESTING_DEPTH))).toBe(false);
    expect(nestsDeeperThan(nested(MAX_NESTING_DEPTH + 1))).toBe(true);
  });

  it("answers for 10,000 and 100,000 levels without overflowing the stack", () => {
    expect(nestsDeeperThan(nested(10_000))).toBe(true);
    expect(nestsDeeperThan(JSON.parse("[".repeat(100_000) + "]".repeat(100_000)))).toBe(true);
  });

  it("finds a deep branch beside many shallow ones", () => {
    const wide = { items: Array.from({ length: 1_000 }, (_, index) => ({ index })), deep: nested(300) };
    expect(nestsDeeperThan(wide)).toBe(true);
  });
});
