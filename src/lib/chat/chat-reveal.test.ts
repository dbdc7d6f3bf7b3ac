import { describe, expect, it } from "vitest";
import { placeInView } from "./chat-reveal.ts";

/** A scroller whose view is [scrollTop, scrollTop + 800), and an item at `itemTop` once it is rendered. */
function scene(itemTop: number) {
  const scroller = { scrollTop: 0 } as HTMLElement;
  const box = (top: number, height: number) => ({ top, bottom: top + height }) as DOMRect;
  scroller.getBoundingClientRect = () => box(0, 800);
  const intoView: number[] = [];
  const element = {
    getBoundingClientRect: () => box(itemTop - scroller.scrollTop, 100),
    scrollIntoView: () => {
      intoView.push(itemTop);
      scroller.scrollTop = itemTop - 350;
    },
  } as unknown as HTMLElement;
  return { scroller, element, intoView };
}

describe("placeInView", () => {
  it("scrolls to the estimate until the item is rendered, centres it, and stops once it stays in view", async () => {
    const { scroller, element, intoView } = scene(20_000);
    const scrolledTo: number[] = [];
    let estimate = 15_000;
    let settles = 0;
    await placeInView(
      {
        scroller,
        estimatedTop: () => estimate,
        scrollTo: (top) => {
          scrolledTo.push(top);
          scroller.scrollTop = top;
        },
      },
      async () => {
        settles++;
        // Heights measured around the first estimate move it, still not onto the item.
        estimate = 25_000;
      },
      // Rendered from the second settle on.
      () => (settles >= 2 ? element : null),
    );
    // The caller made the first move (to 15,000): the next estimate after the first render, then where
    // centring the item left the view.
    expect(scrolledTo).toEqual([25_000, 19_650]);
    expect(intoView).toEqual([20_000]);
    // Found in view on the attempt after it was centred: no more moves.
    expect(settles).toBe(3);
  });

  it("gives up after six attempts when the item never comes into view", async () => {
    const { scroller } = scene(0);
    let settles = 0;
    await placeInView(
      { scroller, estimatedTop: () => 1_000, scrollTo: (top) => (scroller.scrollTop = top) },
      async () => void settles++,
      () => null,
    );
    expect(settles).toBe(6);
  });
});
