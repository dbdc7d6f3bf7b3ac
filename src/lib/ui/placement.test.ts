import { describe, expect, it } from "vitest";
import { placePopover } from "./placement.ts";

const viewport = { width: 390, height: 844 };

describe("popover placement", () => {
  it("opens below the trigger, aligned on the chosen edge", () => {
    const trigger = { top: 100, left: 50, width: 40, height: 30 };
    expect(placePopover(trigger, { width: 200, height: 150 }, viewport, "start")).toMatchObject({
      top: 134,
      left: 50,
    });
    const end = placePopover({ ...trigger, left: 300 }, { width: 200, height: 150 }, viewport, "end");
    expect(end.left).toBe(140);
  });

  it("stays inside the viewport horizontally, whatever the trigger's position", () => {
    const nearRight = placePopover(
      { top: 10, left: 360, width: 24, height: 24 },
      { width: 300, height: 100 },
      viewport,
      "start",
    );
    expect(nearRight.left + 300).toBeLessThanOrEqual(viewport.width - 8);
    const nearLeft = placePopover(
      { top: 10, left: 4, width: 24, height: 24 },
      { width: 300, height: 100 },
      viewport,
      "end",
    );
    expect(nearLeft.left).toBe(8);
  });

  it("opens upwards when there is more room above, and caps its height to the room it has", () => {
    const low = placePopover(
      { top: 780, left: 20, width: 40, height: 30 },
      { width: 200, height: 300 },
      viewport,
      "start",
    );
    expect(low.top).toBe(780 - 4 - 300);
    const tall = placePopover(
      { top: 400, left: 20, width: 40, height: 30 },
      { width: 200, height: 2000 },
      viewport,
      "start",
    );
    expect(tall.maxHeight).toBe(844 - 430 - 4 - 8);
    expect(tall.top).toBe(434);
  });
});
