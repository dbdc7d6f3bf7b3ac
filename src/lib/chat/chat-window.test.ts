import { describe, expect, it } from "vitest";
import { around, earlier, latest, later, shown, type WindowLimits } from "./chat-window.ts";

const limits: WindowLimits = { page: 10, max: 30 };

describe("the chat's window over a long conversation", () => {
  it("starts on the latest page and follows new items, shedding the oldest once full", () => {
    const range = latest(100, limits);
    expect(shown(range, 100, limits)).toEqual({ start: 90, end: 100 });
    expect(shown(range, 115, limits)).toEqual({ start: 90, end: 115 });
    expect(shown(range, 200, limits)).toEqual({ start: 170, end: 200 });
    expect(shown(latest(4, limits), 4, limits)).toEqual({ start: 0, end: 4 });
  });

  it("shows earlier pages up to the limit, then lets go of the latest", () => {
    let range = latest(100, limits);
    range = earlier(range, 100, limits);
    expect(shown(range, 100, limits)).toEqual({ start: 80, end: 100 });
    expect(range.following).toBe(true);
    range = earlier(earlier(range, 100, limits), 100, limits);
    expect(shown(range, 100, limits)).toEqual({ start: 60, end: 90 });
    expect(range.following).toBe(false);
    // New items do not move a window the reader left.
    expect(shown(range, 150, limits)).toEqual({ start: 60, end: 90 });
    expect(shown(earlier({ start: 3, end: 20, following: false }, 100, limits), 100, limits)).toEqual({
      start: 0,
      end: 20,
    });
  });

  it("shows later pages and follows again on reaching the latest", () => {
    let range = around(20, 100, limits);
    expect(shown(range, 100, limits)).toEqual({ start: 15, end: 25 });
    range = later(range, 100, limits);
    expect(shown(range, 100, limits)).toEqual({ start: 15, end: 35 });
    for (let step = 0; step < 10; step++) range = later(range, 100, limits);
    expect(range.following).toBe(true);
    expect(shown(range, 100, limits)).toEqual({ start: 70, end: 100 });
  });

  it("never holds more than the limit, whatever the steps", () => {
    let range = latest(10_000, limits);
    for (let step = 0; step < 50; step++) {
      range = step % 3 === 2 ? later(range, 10_000, limits) : earlier(range, 10_000, limits);
      const { start, end } = shown(range, 10_000, limits);
      expect(end - start).toBeLessThanOrEqual(limits.max);
      expect(start).toBeGreaterThanOrEqual(0);
    }
  });

  it("still shows the latest page of a conversation that got shorter", () => {
    const following = earlier(latest(1_000, limits), 1_000, limits);
    expect(shown(following, 12, limits)).toEqual({ start: 2, end: 12 });
    expect(shown({ start: 500, end: 520, following: false }, 12, limits)).toEqual({ start: 2, end: 12 });
  });

  it("centres on an item anywhere, clamped to the ends", () => {
    expect(shown(around(5_000, 10_000, limits), 10_000, limits)).toEqual({ start: 4995, end: 5005 });
    expect(shown(around(2, 10_000, limits), 10_000, limits)).toEqual({ start: 0, end: 10 });
    const last = around(9_999, 10_000, limits);
    expect(shown(last, 10_000, limits)).toEqual({ start: 9990, end: 10_000 });
    expect(last.following).toBe(true);
  });
});
