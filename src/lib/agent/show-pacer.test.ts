import { describe, expect, it } from "vitest";
import { SHOW_INTERVAL_MS, ShowPacer, type Frames } from "./show-pacer.ts";

/** Frames driven by hand: `frame(time)` runs what was asked for the next frame, at that time. */
function manualFrames() {
  let now = 0;
  let next = 1;
  const waiting = new Map<number, (time: number) => void>();
  const frames: Frames = {
    now: () => now,
    request: (callback) => {
      waiting.set(next, callback);
      return next++;
    },
    cancel: (handle) => void waiting.delete(handle),
  };
  const frame = (time: number): void => {
    now = time;
    const due = [...waiting.values()];
    waiting.clear();
    for (const callback of due) callback(time);
  };
  return { frames, frame, asked: () => waiting.size };
}

describe("ShowPacer", () => {
  it("shows on a frame, at most every SHOW_INTERVAL_MS, however often it is asked", () => {
    const { frames, frame, asked } = manualFrames();
    const shown: number[] = [];
    const pacer = new ShowPacer((time) => (shown.push(time), true), { frames });
    pacer.ask();
    pacer.ask();
    pacer.ask();
    expect(asked()).toBe(1);
    frame(100);
    expect(shown).toEqual([100]);
    pacer.ask();
    // Frames too soon after the last showing pass; the first one the interval allows shows.
    frame(116);
    frame(100 + SHOW_INTERVAL_MS - 1);
    expect(shown).toEqual([100]);
    frame(100 + SHOW_INTERVAL_MS);
    expect(shown).toEqual([100, 100 + SHOW_INTERVAL_MS]);
    // Nothing asked: frames show nothing.
    frame(200);
    expect(shown).toHaveLength(2);
  });

  it("counts the interval from a showing made outside it, and not from a frame that had nothing to show", () => {
    const { frames, frame } = manualFrames();
    const shown: number[] = [];
    let hasNews = false;
    const pacer = new ShowPacer((time) => (hasNews ? (shown.push(time), true) : false), { frames });
    frame(50);
    pacer.shownNow();
    pacer.ask();
    frame(60);
    expect(shown).toEqual([]);
    // The frame the interval allows finds nothing new: the next ask need not wait another interval.
    frame(50 + SHOW_INTERVAL_MS);
    hasNews = true;
    pacer.ask();
    frame(51 + SHOW_INTERVAL_MS);
    expect(shown).toEqual([51 + SHOW_INTERVAL_MS]);
  });

  it("shows nothing once cancelled, and can be asked again after", () => {
    const { frames, frame, asked } = manualFrames();
    const shown: number[] = [];
    const pacer = new ShowPacer((time) => (shown.push(time), true), { frames });
    pacer.ask();
    pacer.cancel();
    expect(asked()).toBe(0);
    frame(100);
    expect(shown).toEqual([]);
    pacer.ask();
    frame(200);
    expect(shown).toEqual([200]);
  });
});
