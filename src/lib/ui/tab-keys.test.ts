import { describe, expect, it } from "vitest";
import { tabAfterKey } from "./tab-keys.ts";

describe("tabAfterKey", () => {
  const tabs = ["a", "b", "c"];
  it("moves with the arrows, wrapping around, and to the ends with Home and End", () => {
    expect(tabAfterKey("ArrowRight", tabs, "a")).toBe("b");
    expect(tabAfterKey("ArrowRight", tabs, "c")).toBe("a");
    expect(tabAfterKey("ArrowLeft", tabs, "a")).toBe("c");
    expect(tabAfterKey("Home", tabs, "b")).toBe("a");
    expect(tabAfterKey("End", tabs, "a")).toBe("c");
  });

  it("leaves other keys alone", () => {
    expect(tabAfterKey("Enter", tabs, "a")).toBeUndefined();
    expect(tabAfterKey("ArrowDown", tabs, "a")).toBeUndefined();
  });
});
