import { afterEach, describe, expect, it, vi } from "vitest";
import { afterNextPaint } from "./after-paint.ts";

describe("afterNextPaint", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  function stubFrames() {
    const frames = new Map<number, FrameRequestCallback>();
    let next = 1;
    vi.stubGlobal("requestAnimationFrame", (callback: FrameRequestCallback) => {
      frames.set(next, callback);
      return next++;
    });
    vi.stubGlobal("cancelAnimationFrame", (handle: number) => frames.delete(handle));
    const paint = () => {
      const due = [...frames.values()];
      frames.clear();
      for (const callback of due) callback(0);
    };
    return { paint };
  }

  it("runs in a task after the next frame, not before it", async () => {
    vi.useFakeTimers();
    const { paint } = stubFrames();
    const callback = vi.fn();
    afterNextPaint(callback);
    await vi.advanceTimersByTimeAsync(50);
    expect(callback).not.toHaveBeenCalled();
    paint();
    expect(callback).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(0);
    expect(callback).toHaveBeenCalledTimes(1);
  });

  it("does nothing once called off, before or after the frame", async () => {
    vi.useFakeTimers();
    const { paint } = stubFrames();
    const early = vi.fn();
    afterNextPaint(early)();
    paint();
    const late = vi.fn();
    const cancel = afterNextPaint(late);
    paint();
    cancel();
    await vi.advanceTimersByTimeAsync(10);
    expect(early).not.toHaveBeenCalled();
    expect(late).not.toHaveBeenCalled();
  });
});
