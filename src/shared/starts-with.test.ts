import { describe, expect, it } from "vitest";
import { startsWith } from "./starts-with.ts";

describe("startsWith", () => {
  const [a, b, c] = [{ id: "a" }, { id: "b" }, { id: "c" }];

  it("holds for the same items, by identity, followed by any others", () => {
    expect(startsWith([a, b, c], [a, b])).toBe(true);
    expect(startsWith([a, b], [a, b])).toBe(true);
    expect(startsWith([a], [])).toBe(true);
  });

  it("fails for a shorter list, a replaced item, or an equal copy of one", () => {
    expect(startsWith([a], [a, b])).toBe(false);
    expect(startsWith([a, c, c], [a, b])).toBe(false);
    expect(startsWith([{ id: "a" }, b], [a, b])).toBe(false);
  });
});
