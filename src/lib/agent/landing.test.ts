import { describe, expect, it } from "vitest";
import { landingOf, type RunMoment } from "./landing.ts";

const held: RunMoment = { running: true, held: true, steeringPerCall: 1 };
const streaming: RunMoment = { running: true, held: false, steeringPerCall: 1 };

describe("where a queued message lands", () => {
  it("while a call is held: the first steer joins it, the next ones wait one call each, follow-ups wait for the stop", () => {
    expect(landingOf("steering", 0, held)).toBe("thisCall");
    expect(landingOf("steering", 1, held)).toBe("laterCall");
    expect(landingOf("followUp", 0, held)).toBe("whenItWouldStop");
    expect(landingOf("nextTurn", 0, held)).toBe("nextPrompt");
  });

  it("with the Agent delivering all steering at once, every steer joins the held call", () => {
    expect(landingOf("steering", 3, { ...held, steeringPerCall: Number.POSITIVE_INFINITY })).toBe("thisCall");
  });

  it("while a reply streams or tools run: steering goes with the next call", () => {
    expect(landingOf("steering", 0, streaming)).toBe("nextCall");
    expect(landingOf("steering", 1, streaming)).toBe("laterCall");
    expect(landingOf("followUp", 1, streaming)).toBe("whenItWouldStop");
  });

  it("left in the queues when a run ended: the next run takes them", () => {
    const idle = { running: false, held: false, steeringPerCall: 1 };
    expect(landingOf("steering", 0, idle)).toBe("nextRun");
    expect(landingOf("steering", 1, idle)).toBe("laterCall");
    expect(landingOf("followUp", 0, idle)).toBe("whenItWouldStop");
  });
});
