import { afterEach, describe, expect, it, vi } from "vitest";
import { prefetchWhenIdle, whenIdle } from "./prefetch.ts";

describe("prefetchWhenIdle", () => {
  afterEach(() => vi.useRealTimers());

  it("loads once the page is idle, not before, and not at all when called off", async () => {
    vi.useFakeTimers();
    const load = vi.fn(async () => undefined);
    prefetchWhenIdle(load);
    expect(load).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(600);
    expect(load).toHaveBeenCalledTimes(1);
    const other = vi.fn(async () => undefined);
    prefetchWhenIdle(other)();
    await vi.advanceTimersByTimeAsync(600);
    expect(other).not.toHaveBeenCalled();
  });

  it("swallows a failed fetch: the real use reports it", async () => {
    vi.useFakeTimers();
    prefetchWhenIdle(() => Promise.reject(new Error("offline")));
    await expect(vi.advanceTimersByTimeAsync(600)).resolves.not.toThrow();
  });
});

describe("whenIdle", () => {
  afterEach(() => vi.useRealTimers());

  it("runs the work once idle, and not at all when called off first", async () => {
    vi.useFakeTimers();
    const work = vi.fn();
    whenIdle(work);
    expect(work).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(600);
    expect(work).toHaveBeenCalledTimes(1);
    const other = vi.fn();
    whenIdle(other)();
    await vi.advanceTimersByTimeAsync(600);
    expect(other).not.toHaveBeenCalled();
  });
});
