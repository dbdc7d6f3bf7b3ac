import { describe, expect, it } from "vitest";
import { formatCost, formatDateTime, formatJson, formatTime, formatTokens, relativeTime } from "./format.ts";

describe("formatting", () => {
  it("says how long ago something changed", () => {
    const now = Date.UTC(2026, 10, 30, 12);
    expect(relativeTime(now - 10_000, now)).toBe("just now");
    expect(relativeTime(now - 5 * 60_000, now)).toBe("5 min ago");
    expect(relativeTime(now - 3 * 3_600_000, now)).toBe("3 h ago");
    expect(relativeTime(now - 2 * 86_400_000, now)).toBe("2 days ago");
  });

  it("formats tokens and costs", () => {
    expect(formatTokens(1234)).toBe("1,234");
    expect(formatTokens(12_345)).toBe("12.3k");
    expect(formatCost(0)).toBe("$0");
    expect(formatCost(0.0012)).toBe("$0.0012");
    expect(formatCost(1.5)).toBe("$1.50");
  });

  it("formats times as the browser's own British English formatting does", () => {
    const at = Date.UTC(2026, 10, 30, 9, 5, 7);
    expect(formatTime(at)).toBe(
      new Date(at).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", second: "2-digit" }),
    );
    expect(formatDateTime(at)).toBe(
      new Date(at).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" }),
    );
    expect(formatTime(0)).toBe("");
  });
});

describe("formatJson", () => {
  it("shows any value without throwing: 10,000 levels deep, cyclic, or with a null prototype", () => {
    let deep: unknown = 1;
    for (let level = 0; level < 10_000; level++) deep = { d: deep };
    expect(formatJson(deep)).toContain("[nested deeper than 200 levels]");
    const cyclic: Record<string, unknown> = {};
    cyclic.me = cyclic;
    expect(formatJson(cyclic)).toBe('{\n  "me": "[circular]"\n}');
    expect(formatJson(Object.create(null))).toBe("{}");
  });
});
