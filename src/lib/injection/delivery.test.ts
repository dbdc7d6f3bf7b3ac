import { describe, expect, it } from "vitest";
import { deliveryOptions, effectiveDelivery } from "./delivery.ts";

describe("delivery modes", () => {
  it("offers append (with or without a turn) when idle, and the queues while running; next turn always", () => {
    expect(deliveryOptions(false).map((option) => option.value)).toEqual([
      "append",
      "appendAndRun",
      "nextTurn",
    ]);
    expect(deliveryOptions(true).map((option) => option.value)).toEqual(["steer", "followUp", "nextTurn"]);
  });

  it("keeps a choice that still applies and falls back when the run state changed", () => {
    expect(effectiveDelivery("nextTurn", true)).toBe("nextTurn");
    expect(effectiveDelivery("followUp", true)).toBe("followUp");
    expect(effectiveDelivery("append", true)).toBe("steer");
    expect(effectiveDelivery("steer", false)).toBe("append");
    expect(effectiveDelivery(undefined, false)).toBe("append");
  });
});
