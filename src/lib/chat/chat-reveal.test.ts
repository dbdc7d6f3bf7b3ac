import { describe, expect, it } from "vitest";
import { placeInView, type RevealPort } from "./chat-reveal.ts";

/**
 * A scroller whose view is [scrollTop, scrollTop + 800) and an item 100 px tall at `item.top` once it is
 * rendered; the test moves `item.top` (heights measured above it) and `content.height` as a layout would.
 */
function scene(top: number) {
  const item = { top };
  const content = { height: 50_000 };
  const box = (at: number, height: number) => ({ top: at, bottom: at + height }) as DOMRect;
  // A getter, not a value: the content's height is read as it is at each frame.
  const scroller = Object.defineProperties(new EventTarget(), {
    scrollTop: { value: 0, writable: true },
    scrollHeight: { get: () => content.height },
    getBoundingClientRect: { value: () => box(0, 800) },
  }) as unknown as HTMLElement;
  const intoView: number[] = [];
  const element = {
    getBoundingClientRect: () => box(item.top - scroller.scrollTop, 100),
    scrollIntoView: () => {
      intoView.push(item.top);
      scroller.scrollTop = item.top - 350;
    },
  } as unknown as HTMLElement;
  const scrolledTo: number[] = [];
  const port = (estimatedTop: () => number): RevealPort => ({
    scroller,
    estimatedTop,
    scrollTo: (to) => {
      scrolledTo.push(to);
      scroller.scrollTop = to;
    },
  });
  const inView = () => {
    const { top: at, bottom } = element.getBoundingClientRect();
    return at >= 0 && bottom <= 800;
  };
  return { scroller, element, item, content, intoView, scrolledTo, port, inView };
}

describe("placeInView", () => {
  it("scrolls to the estimate until the item is rendered, centres it, and stops once it has stayed put for three frames", async () => {
    const { element, intoView, scrolledTo, port, inView } = scene(20_000);
    let estimate = 15_000;
    let settles = 0;
    await placeInView(
      port(() => estimate),
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
    // Not rendered, centred, then the same place three frames running: no more moves.
    expect(settles).toBe(5);
    expect(inView()).toBe(true);
  });

  it("places the item again when heights measured after it came into view push it out, and waits for them to stop", async () => {
    const { element, item, content, intoView, port, inView } = scene(20_000);
    let settles = 0;
    await placeInView(
      port(() => 19_000),
      async () => {
        settles++;
        // The frame after it was centred, the messages around it are measured: taller than estimated, they
        // push it 450 px down (its foot below the view). The content grows the frame after, and the next
        // frame's measurements push it out again: the item was in view between the two.
        if (settles === 2) item.top += 450;
        if (settles === 3) content.height += 200;
        if (settles === 4) item.top += 400;
      },
      () => element,
    );
    expect(intoView).toEqual([20_000, 20_450, 20_850]);
    expect(inView()).toBe(true);
    // Centred, pushed out and centred again, seen once in view, pushed out and centred again, then three
    // still frames.
    expect(settles).toBe(4 + 3);
  });

  /**
   * Place an item, and on the second settle (after it was centred) dispatch `event` on the scroller and move
   * the item out of view: whether it is placed again says whether the event ended the placing.
   */
  async function disturbedAfterCentring(event: Event) {
    const { scroller, element, item, intoView, port } = scene(20_000);
    let settles = 0;
    await placeInView(
      port(() => 19_000),
      async () => {
        settles++;
        if (settles === 2) {
          scroller.dispatchEvent(event);
          item.top += 2_000;
        }
      },
      () => element,
    );
    return { intoView, settles };
  }

  it("stops placing the moment the reader scrolls", async () => {
    const { intoView, settles } = await disturbedAfterCentring(new Event("wheel"));
    expect(intoView).toEqual([20_000]);
    expect(settles).toBe(2);
  });

  it("does not take a press on a button inside the chat for the reader scrolling", async () => {
    const press = new Event("pointerdown");
    Object.defineProperty(press, "target", { value: {} });
    const { intoView } = await disturbedAfterCentring(press);
    expect(intoView).toEqual([20_000, 22_000]);
  });

  it("gives up after thirty frames when the item never comes into view", async () => {
    const { port } = scene(0);
    let settles = 0;
    await placeInView(
      port(() => 1_000),
      async () => void settles++,
      () => null,
    );
    expect(settles).toBe(30);
  });

  it("stops placing an item when a newer reveal in the same chat begins, and leaves the view to it", async () => {
    const first = scene(20_000);
    const { scroller, intoView, port } = first;
    let firstSettles = 0;
    let secondBegun: Promise<void> | undefined;
    const second = {
      getBoundingClientRect: () =>
        ({ top: 60_000 - scroller.scrollTop, bottom: 60_100 - scroller.scrollTop }) as DOMRect,
      scrollIntoView: () => {
        intoView.push(60_000);
        scroller.scrollTop = 60_000 - 350;
      },
    } as unknown as HTMLElement;
    const placingFirst = placeInView(
      port(() => 19_000),
      async () => {
        firstSettles++;
        // Centred at the first settle; at the second, another fact is chosen before this one settled.
        if (firstSettles === 2)
          secondBegun = placeInView(
            port(() => 59_000),
            async () => undefined,
            () => second,
          );
      },
      () => first.element,
    );
    await placingFirst;
    await secondBegun;
    // The first item was centred once; from the second reveal on, only its item was placed.
    expect(intoView).toEqual([20_000, 60_000]);
    expect(firstSettles).toBe(2);
    expect(scroller.scrollTop).toBe(59_650);
  });
});
