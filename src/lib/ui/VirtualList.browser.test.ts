import { createRawSnippet } from "svelte";
import { describe, expect, it } from "vitest";
import { render } from "vitest-browser-svelte";
import "../../app.css";
import VirtualList from "./VirtualList.svelte";

/**
 * The virtual list in Chromium: it learns its height from a resize observer, after the page's first layout,
 * and renders then the rows that fit, and the few beyond them once those are painted. Until it has a height
 * it renders no rows at all.
 */

async function frames(count: number): Promise<void> {
  for (let frame = 0; frame < count; frame++) await new Promise((resolve) => requestAnimationFrame(resolve));
}

const ROW_HEIGHT = 32;
const row = createRawSnippet((index: () => number) => ({ render: () => `<span>Row ${index() + 1}</span>` }));
const shownIndices = (box: HTMLElement) =>
  [...box.querySelectorAll<HTMLElement>('[role="option"]')].map((option) => Number(option.dataset.index));

describe("VirtualList", () => {
  it("renders no rows while it has no height, and the rows at its end once it has one", async () => {
    const box = document.createElement("div");
    box.style.cssText = `display: none; flex-direction: column; width: 300px; height: ${10 * ROW_HEIGHT}px`;
    document.body.append(box);
    const { unmount } = await render(VirtualList, {
      target: box,
      props: {
        count: 1_000,
        rowHeight: ROW_HEIGHT,
        label: "Things",
        idPrefix: "thing",
        row,
        labelOf: (index: number) => `Thing ${index + 1}`,
        onchoose: () => undefined,
        follow: true,
      },
    });
    try {
      await frames(2);
      expect(shownIndices(box)).toEqual([]);

      box.style.display = "flex";
      // Following its end: the ten rows in view are the last ten, and the six above them are made once
      // those have been painted.
      await expect.poll(() => shownIndices(box).length).toBe(16);
      expect(shownIndices(box).toSorted((a, b) => a - b)).toEqual(
        Array.from({ length: 16 }, (_, offset) => 984 + offset),
      );
      await expect.element(box.querySelector<HTMLElement>("#thing-999")!).toHaveTextContent("Row 1000");
    } finally {
      await unmount();
      box.remove();
    }
  });
});
