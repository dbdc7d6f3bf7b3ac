import { describe, expect, it } from "vitest";
import { chainEntries } from "../messages/entries.ts";
import { analyze, assistant, usage, user } from "./anatomy.test-support.ts";
import { costPaths, layoutTimeline, pointsMarkup, pointsOfCalls, pointsOfReplies } from "./timeline.ts";

describe("the timeline", () => {
  it("has one point per call, placed by its context size, with the window's line on the scale", () => {
    const points = pointsOfCalls(analyze());
    expect(points.map((point) => [point.number, point.tokens])).toEqual([
      [1, 600],
      [2, 4_600],
      [3, 5_000],
    ]);
    const layout = layoutTimeline(points, 640, 200);
    // The window (10,000) is within twice the largest context: the scale reaches it.
    expect(layout.max).toBe(10_000);
    expect(layout.windowY).toBeCloseTo(layout.top);
    expect([...layout.xs]).toEqual([layout.left, (layout.left + layout.right) / 2, layout.right]);
    expect(layout.ys[2]).toBeCloseTo(layout.bottom - (layout.bottom - layout.top) / 2);
    const markup = pointsMarkup(points, layout, 1);
    expect(markup.match(/<circle /g)).toHaveLength(3);
    expect(markup).toContain('class="point selected"');
    expect(markup).toContain("Call #2: 4,600 tokens (provider's count), mirror/mirror");
  });

  it("keeps a far larger window off the scale, and a window it does not know out", () => {
    const points = pointsOfCalls(analyze(undefined, () => 1_000_000));
    expect(layoutTimeline(points, 640, 200)).toMatchObject({
      max: 10_000,
      windowY: undefined,
      window: 1_000_000,
    });
    const unknown = pointsOfCalls(analyze(undefined, () => undefined));
    expect(layoutTimeline(unknown, 640, 200)).toMatchObject({ window: undefined, windowY: undefined });
  });

  it("leaves out the tooltips once points are too many to point at, never the points", () => {
    const [point] = pointsOfCalls(analyze());
    if (!point) throw new Error("no point");
    const many = Array.from({ length: 1_000 }, (_, index) => ({ ...point, number: index + 1, seq: index }));
    const markup = pointsMarkup(many, layoutTimeline(many, 640, 200), 5);
    expect(markup.match(/<circle /g)).toHaveLength(1_000);
    expect(markup).not.toContain("<title>");
    expect(markup.match(/class="point selected"/g)).toHaveLength(1);
  });

  it("escapes what it puts in the markup", () => {
    const [point] = pointsOfCalls(analyze());
    if (!point) throw new Error("no point");
    const markup = pointsMarkup(
      [{ ...point, label: `<img src=x onerror="x">` }],
      layoutTimeline([point], 640, 200),
      "next",
    );
    expect(markup).not.toContain("<img");
    expect(markup).toContain("&lt;img src=x onerror=&quot;x&quot;&gt;");
  });

  it("draws cost per call and cumulative cost", () => {
    const points = pointsOfCalls(analyze());
    const { bars, cumulative } = costPaths(points, layoutTimeline(points, 640, 200), 64);
    expect(bars.match(/M/g)).toHaveLength(3);
    expect(cumulative.match(/[ML]/g)).toHaveLength(3);
    expect(points.map((point) => point.cumulativeCost)).toEqual([0.01, 0.03, 0.06]);
  });

  it("reads a session recorded before calls were from its replies' usage", () => {
    const entries = chainEntries(
      [
        user("hi"),
        assistant("hello", {}, 2, usage(100, 5, 20)),
        user("more"),
        assistant("ok", {}, 4),
      ] as never[],
      null,
    );
    const points = pointsOfReplies(entries, () => 8_000);
    expect(points.map((point) => [point.tokens, point.basis, point.window])).toEqual([
      [120, "usage", 8_000],
      [undefined, "unknown", 8_000],
    ]);
    const layout = layoutTimeline(points, 640, 200);
    expect(layout.ys[1]).toBeUndefined();
  });
});
