import { describe, expect, it } from "vitest";
import { countOf } from "./count-of.ts";

describe("countOf", () => {
  it("uses the singular only for exactly one", () => {
    expect(countOf(1, "fact")).toBe("1 fact");
    expect(countOf(0, "fact")).toBe("0 facts");
    expect(countOf(12, "fact")).toBe("12 facts");
  });

  it("takes an irregular plural", () => {
    expect(countOf(1, "reply", "replies")).toBe("1 reply");
    expect(countOf(2, "reply", "replies")).toBe("2 replies");
  });
});
