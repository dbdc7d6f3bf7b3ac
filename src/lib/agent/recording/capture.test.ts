import { describe, expect, it } from "vitest";
import { capture, captureList, type SliceClock, truncationNote } from "./capture.ts";

describe("capture", () => {
  it("keeps a part whole when it fits, and says how big it was", () => {
    expect(capture({ a: 1 }, 100, 1_000)).toEqual({ kept: "all", value: { a: 1 }, bytes: 7 });
  });

  it("cuts a part at the limit and says where", () => {
    const part = capture("x".repeat(50), 20, 1_000);
    expect(part).toEqual({ kept: "truncated", text: `"${"x".repeat(19)}`, bytes: 52 });
    expect(truncationNote(part)).toBe("truncated at 20 bytes of 52");
  });

  it("cuts at what is left of the session's budget, and keeps nothing once it is used up", () => {
    expect(capture("x".repeat(50), 1_000, 10)).toMatchObject({ kept: "truncated", bytes: 52 });
    const none = capture("x", 1_000, 0);
    expect(none).toMatchObject({ kept: "none", bytes: 3 });
    expect(truncationNote(none)).toMatch(/^not kept: this session's budget of 64 MB/);
  });
});

describe("captureList", () => {
  const instant: SliceClock = { now: () => 0, pause: () => Promise.resolve() };
  const list = [{ role: "user", text: "héllo" }, undefined, "two", 3, { nested: [1, null, "x".repeat(40)] }];

  it("gives what capture gives for the same list: whole, cut at every size, over budget", async () => {
    const whole = JSON.stringify(list);
    for (let room = 0; room <= whole.length + 2; room++) {
      expect(await captureList(list, room, 1_000, instant), `room ${room}`).toEqual(
        capture(list, room, 1_000),
      );
      expect(await captureList(list, 1_000, room, instant), `budget ${room}`).toEqual(
        capture(list, 1_000, room),
      );
    }
    expect(await captureList([], 10, 10, instant)).toEqual(capture([], 10, 10));
  });

  it("keeps a copy of the list, not the list itself", async () => {
    const items = [1, 2];
    const part = await captureList(items, 100, 100, instant);
    items.push(3);
    expect(part).toEqual({ kept: "all", value: [1, 2], bytes: 5 });
  });

  it("gives the page a turn whenever a slice has run its time, and only then", async () => {
    let time = 0;
    let pauses = 0;
    const clock: SliceClock = {
      // Each item takes 3 ms: a slice of 8 ms holds three.
      now: () => (time += 3),
      pause: () => {
        pauses++;
        return Promise.resolve();
      },
    };
    const items = Array.from({ length: 30 }, (_, index) => index);
    const part = await captureList(items, 10_000, 10_000, clock);
    expect(part).toEqual(capture(items, 10_000, 10_000));
    expect(pauses).toBeGreaterThan(5);
    expect(pauses).toBeLessThan(items.length);
    pauses = 0;
    await captureList(items, 10_000, 10_000, instant);
    expect(pauses).toBe(0);
  });

  it("says when an item cannot be written as JSON", async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(await captureList([1, cyclic], 100, 100, instant)).toMatchObject({
      kept: "none",
      reason: expect.stringMatching(/^it could not be written as JSON/),
    });
  });
});
