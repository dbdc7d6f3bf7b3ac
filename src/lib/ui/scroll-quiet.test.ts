import { describe, expect, it } from "vitest";
import { watchScrolls } from "./scroll-quiet.ts";

describe("watchScrolls", () => {
  it("is quiet until a scroll, then for the time asked after the last one", () => {
    const page = new EventTarget();
    let clock = 1_000;
    const scrolls = watchScrolls(page, () => clock);
    expect(scrolls.untilQuiet(500)).toBe(0);
    page.dispatchEvent(new Event("scroll"));
    clock += 200;
    expect(scrolls.untilQuiet(500)).toBe(300);
    // The wheel counts as a scroll too: it comes first, before the scroll event it causes.
    page.dispatchEvent(new Event("wheel"));
    clock += 100;
    expect(scrolls.untilQuiet(500)).toBe(400);
    clock += 400;
    expect(scrolls.untilQuiet(500)).toBe(0);
  });
});
