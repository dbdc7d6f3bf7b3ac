import { describe, expect, it } from "vitest";
import { figureText, formatBytes } from "./figures.ts";

describe("a figure as the comparison shows it", () => {
  const figures = {
    input: 12_345,
    cacheRead: 0,
    cacheWrite: 267,
    output: 29,
    cost: 0.0123,
    firstTokenMs: 84,
    durationMs: 1_250,
    payloadBytes: 1_900,
    stopReason: "stop",
    errorMessage: undefined,
  };

  it("formats each kind of figure, and a missing one as a dash", () => {
    expect(figureText(figures, "input")).toBe("12.3k");
    expect(figureText(figures, "output")).toBe("29");
    expect(figureText(figures, "cost")).toBe("$0.01");
    expect(figureText(figures, "firstTokenMs")).toBe("84 ms");
    expect(figureText(figures, "durationMs")).toBe("1.25 s");
    expect(figureText(figures, "payloadBytes")).toBe("1.9 kB");
    expect(figureText({ ...figures, payloadBytes: undefined }, "payloadBytes")).toBe("–");
    expect(figureText(undefined, "output")).toBe("–");
  });

  it("gives sizes in bytes, kB and MB", () => {
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(2048)).toBe("2.0 kB");
    expect(formatBytes(3 * 1024 * 1024)).toBe("3.0 MB");
  });
});
