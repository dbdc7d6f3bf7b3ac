import { describe, expect, it } from "vitest";
import { ToolCallStreak, toolStreakNotice } from "./tool-call-streak.ts";

describe("ToolCallStreak", () => {
  it("stops the run once the calls in a row reach the limit, and says so once", () => {
    const streak = new ToolCallStreak(() => 3);
    expect(streak.afterTurn(1)).toBe("go on");
    expect(streak.afterTurn(1)).toBe("go on");
    expect(streak.takeStop()).toBeUndefined();
    expect(streak.afterTurn(2)).toBe("stop");
    expect(streak.takeStop()).toBe(3);
    expect(streak.takeStop()).toBeUndefined();
  });

  it("counts calls in a row only: a reply without a tool call, or a new run, starts again", () => {
    let limit = 2;
    const streak = new ToolCallStreak(() => limit);
    expect(streak.afterTurn(1)).toBe("go on");
    expect(streak.afterTurn(0)).toBe("go on");
    expect(streak.afterTurn(1)).toBe("go on");
    streak.reset();
    expect(streak.afterTurn(1)).toBe("go on");
    // The limit is read at each turn: lowered mid-run, it applies to the next.
    limit = 1;
    expect(streak.afterTurn(1)).toBe("stop");
  });

  it("names the limit in its notice", () => {
    expect(toolStreakNotice(1)).toContain("after 1 tool call in a row");
    expect(toolStreakNotice(50)).toContain("after 50 tool calls in a row");
  });
});
