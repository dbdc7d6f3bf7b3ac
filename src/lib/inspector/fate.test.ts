import { describe, expect, it } from "vitest";
import { fateLabel } from "./fate.ts";

describe("fateLabel", () => {
  it("says a fact the model has not seen yet is not yet sent", () => {
    expect(fateLabel("sent", false)).toEqual({ text: "not yet sent (as-is)", tone: "pending" });
    expect(fateLabel("converted", false)).toEqual({ text: "not yet sent (→ user)", tone: "pending" });
  });

  it("names every other fate whether or not a request has happened since", () => {
    expect(fateLabel("sent", true).text).toBe("sent as-is");
    expect(fateLabel("converted", true).text).toBe("converted → user");
    for (const seen of [true, false]) {
      expect(fateLabel("hidden", seen).text).toBe("hidden by policy");
      expect(fateLabel("excluded", seen).text).toBe("excluded (!!)");
      expect(fateLabel("compacted", seen).text).toBe("dropped by compaction");
    }
  });
});
