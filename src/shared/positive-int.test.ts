import { describe, expect, it } from "vitest";
import { positiveInt } from "./positive-int.ts";

describe("positiveInt", () => {
  it("reads whole numbers above zero, and nothing else", () => {
    expect(positiveInt("8000")).toBe(8000);
    for (const value of [undefined, "", "0", "-5", "2.5", "ten", 8000])
      expect(positiveInt(value)).toBeUndefined();
  });
});
