import { describe, expect, it } from "vitest";
import { testCallRecord as call } from "../../storage/call-record.test-support.ts";
import { keepingShown, placedAtEnd } from "./latest-calls.ts";

describe("a session's last calls, shown before the others are read", () => {
  it("places them at the end of a list as long as all the calls, the others not read yet", () => {
    const placed = placedAtEnd([call(7), call(8), call(9)], 10);
    expect(placed).toHaveLength(10);
    expect(placed.slice(0, 7)).toEqual(Array.from({ length: 7 }, () => undefined));
    expect(placed.slice(7).map((item) => item?.seq)).toEqual([7, 8, 9]);
    // The list ends with the latest call, as the whole list does.
    expect(placed.at(-1)?.seq).toBe(9);
  });

  it("never drops a call read when told a smaller count", () => {
    expect(placedAtEnd([call(0), call(1)], 1).map((item) => item?.seq)).toEqual([0, 1]);
  });

  it("keeps the calls already shown as the same objects in the whole list", () => {
    const shown = placedAtEnd([call(2), call(3)], 4);
    const all = [call(0), call(1), call(2), call(3)];
    const kept = keepingShown(all, shown);
    expect(kept.map((item) => item.seq)).toEqual([0, 1, 2, 3]);
    expect(kept[0]).toBe(all[0]);
    expect(kept[2]).toBe(shown[2]);
    expect(kept[3]).toBe(shown[3]);
    expect(kept[3]).not.toBe(all[3]);
  });
});
