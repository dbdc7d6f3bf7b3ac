import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Clock } from "./clock.svelte.ts";

describe("Clock", () => {
  beforeEach(() => void vi.useFakeTimers({ now: 1_000 }));
  afterEach(() => void vi.useRealTimers());

  it("moves on while it ticks, and stops when told", () => {
    const clock = new Clock();
    expect(clock.now).toBe(1_000);
    const stop = clock.tick(20_000);
    vi.advanceTimersByTime(20_000);
    expect(clock.now).toBe(21_000);
    stop();
    vi.advanceTimersByTime(60_000);
    expect(clock.now).toBe(21_000);
  });
});
