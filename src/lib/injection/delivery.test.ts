import { describe, expect, it } from "vitest";
import { applicableDelivery, deliveryOptions, staleDelivery } from "./delivery.ts";

describe("delivery modes", () => {
  it("offers append (with or without a turn) when idle, and the queues while running; next turn always", () => {
    expect(deliveryOptions(false).map((option) => option.value)).toEqual([
      "append",
      "appendAndRun",
      "nextTurn",
    ]);
    expect(deliveryOptions(true).map((option) => option.value)).toEqual(["steer", "followUp", "nextTurn"]);
  });

  it("says, while a call is held, that a steer joins it and a follow-up does not", () => {
    const [steer, followUp] = deliveryOptions(true, true);
    expect(steer?.explain).toBe("Queued; it joins the held call when you continue.");
    expect(followUp?.explain).toMatch(
      /^Queued; not in the held call: it goes when the agent would otherwise stop/,
    );
  });

  it("keeps a choice only while it applies, and never puts another in its place", () => {
    expect(applicableDelivery("nextTurn", true)).toBe("nextTurn");
    expect(applicableDelivery("followUp", true)).toBe("followUp");
    // A follow-up chosen during a run that has ended is not turned into "append now".
    expect(applicableDelivery("followUp", false)).toBeUndefined();
    expect(applicableDelivery("append", true)).toBeUndefined();
    expect(applicableDelivery(undefined, false)).toBeUndefined();
    expect(staleDelivery("followUp", false)).toBe(
      "Follow-up is for a run, and the run has ended. Choose how to deliver it now.",
    );
  });

  it("does not offer a turn for a message the model does not receive: it would answer nothing new", () => {
    const idle = deliveryOptions(false, false, { reachesModel: false });
    expect(idle.map((option) => option.value)).toEqual(["append", "appendAndRun", "nextTurn"]);
    expect(idle.find((option) => option.value === "appendAndRun")?.unavailable).toMatch(
      /the model does not receive it/,
    );
    expect(idle.filter((option) => option.unavailable)).toHaveLength(1);
    expect(deliveryOptions(false).some((option) => option.unavailable)).toBe(false);
  });
});
