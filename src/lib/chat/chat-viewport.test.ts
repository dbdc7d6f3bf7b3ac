import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ChatViewport } from "./chat-viewport.svelte.ts";

/**
 * The scrolling element as the viewport uses it: its scroll position, sizes and listeners. With `clamp`,
 * the position stays within the content, as a browser keeps it.
 */
function fakeScroller(height: number, clamp = false) {
  const listeners = new Map<string, Set<(event: Event) => void>>();
  let top = 0;
  const element = {
    scrollHeight: 100_000,
    clientHeight: height,
    get scrollTop() {
      return top;
    },
    set scrollTop(value: number) {
      top = clamp ? Math.max(0, Math.min(value, element.scrollHeight - height)) : value;
    },
    getBoundingClientRect: () => ({ top: 0, bottom: height }) as DOMRect,
    addEventListener: (type: string, listener: (event: Event) => void) => {
      const forType = listeners.get(type) ?? new Set();
      listeners.set(type, forType.add(listener));
    },
    removeEventListener: (type: string, listener: (event: Event) => void) =>
      listeners.get(type)?.delete(listener),
  };
  const dispatch = (event: Event) => {
    for (const listener of listeners.get(event.type) ?? []) listener(event);
  };
  return {
    element: element as unknown as HTMLElement,
    scrollTo(to: number) {
      element.scrollTop = to;
      dispatch(new Event("scroll"));
    },
    dispatch,
  };
}

class InertResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}

beforeEach(() => vi.stubGlobal("ResizeObserver", InertResizeObserver));
afterEach(() => vi.unstubAllGlobals());

describe("ChatViewport", () => {
  const items = Array.from({ length: 500 }, (_, index) => ({ index }));

  it("keeps the same window object while scrolling within it, and makes a new one when the range moves", () => {
    const viewport = new ChatViewport(() => items);
    const scroller = fakeScroller(800);
    const detach = viewport.scroller(scroller.element);
    scroller.scrollTo(19_950);
    const first = viewport.window;
    expect(first.start).toBeGreaterThan(0);

    // A few pixels further (a streaming reply's showing followed to the bottom) renders the same items:
    // what reads the window (each rendered item's position) must not be told it changed.
    scroller.scrollTo(19_960);
    expect(viewport.window).toBe(first);

    scroller.scrollTo(40_000);
    const moved = viewport.window;
    expect(moved).not.toBe(first);
    expect(moved.start).toBeGreaterThan(first.start);
    if (typeof detach === "function") detach();
    viewport.destroy();
  });

  it("follows on when the view moves up after the rendered window changed, and stays put when nothing did", () => {
    const viewport = new ChatViewport(() => items);
    const scroller = fakeScroller(800);
    const detach = viewport.scroller(scroller.element);
    void viewport.window;
    viewport.toBottom();
    expect(scroller.element.scrollTop).toBe(100_000);
    // Following the bottom rendered other messages: the browser clamping the view while their spacer was
    // resized (the content's height reads the same again by the time the scroll is reported) is the layout.
    expect(viewport.window.start).toBeGreaterThan(0);
    scroller.scrollTo(60_000);
    expect(viewport.stickToBottom).toBe(true);
    expect(scroller.element.scrollTop).toBe(100_000);

    // Nothing changed since the last follow: a move up is someone's (find in page, a screen reader).
    void viewport.window;
    viewport.toBottom();
    void viewport.window;
    scroller.scrollTo(60_000);
    expect(viewport.stickToBottom).toBe(false);
    expect(scroller.element.scrollTop).toBe(60_000);
    if (typeof detach === "function") detach();
    viewport.destroy();
  });

  it("renders the first window with a narrow margin, and the whole window two frames after the chat is in the page", () => {
    let report: ((entries: ResizeObserverEntry[]) => void) | undefined;
    vi.stubGlobal(
      "ResizeObserver",
      class {
        constructor(callback: (entries: ResizeObserverEntry[]) => void) {
          report ??= callback;
        }
        observe(): void {}
        unobserve(): void {}
        disconnect(): void {}
      },
    );
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal("requestAnimationFrame", (callback: FrameRequestCallback) => frames.push(callback));
    vi.stubGlobal("cancelAnimationFrame", () => undefined);
    const runFrame = () => {
      for (const callback of frames.splice(0)) callback(0);
    };
    const viewport = new ChatViewport(() => items);
    const scroller = fakeScroller(800);
    const detach = viewport.scroller(scroller.element);
    // At the top, taken as 140 px each: 800 px of view and 150 px of margin below hold 7 messages, not the
    // 13 that a margin of 900 px takes.
    const first = viewport.window;
    expect(first.end - first.start).toBe(7);

    const measured = (index: number) =>
      ({
        target: { dataset: { position: String(index) }, offsetHeight: 140 },
        borderBoxSize: [{ blockSize: 140 }],
      }) as unknown as ResizeObserverEntry;
    report?.(Array.from({ length: 7 }, (_, index) => measured(index)));
    expect(viewport.window.end - viewport.window.start).toBe(7);
    runFrame();
    runFrame();
    expect(viewport.window.end - viewport.window.start).toBe(13);
    if (typeof detach === "function") detach();
    viewport.destroy();
  });
  it("after a jump renders anew only the view's messages, and keeps those already rendered that the whole window holds", () => {
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal("requestAnimationFrame", (callback: FrameRequestCallback) => frames.push(callback));
    vi.stubGlobal("cancelAnimationFrame", () => undefined);
    const runFrames = () => {
      for (let frame = 0; frame < 3; frame++) for (const callback of frames.splice(0)) callback(0);
    };
    const viewport = new ChatViewport(() => items);
    const scroller = fakeScroller(800);
    const detach = viewport.scroller(scroller.element);
    runFrames();
    scroller.scrollTo(30_000);
    runFrames();
    // Taken as 140 px each: the view [30,000, 30,800) with 900 px each way.
    const settled = viewport.window;
    expect(settled).toMatchObject({ start: 207, end: 227 });

    // A fling of a little more than the view's height: the margin narrows to the view's 150 px, yet the
    // messages below the view that were rendered and that the whole window keeps (its 900 px) stay.
    scroller.scrollTo(28_900);
    const narrowed = viewport.window;
    expect(narrowed.start).toBe(205);
    expect(narrowed.end).toBe(Math.min(settled.end, 219));
    runFrames();
    expect(viewport.window).toMatchObject({ start: 200, end: 219 });

    // A jump far away keeps nothing: only the view and its narrow margin are rendered at first.
    scroller.scrollTo(60_000);
    expect(viewport.window).toMatchObject({ start: 427, end: 436 });
    if (typeof detach === "function") detach();
    viewport.destroy();
  });

  it("after a reveal that reaches the end, follows from the bottom as it is then, not from where it last followed", async () => {
    const viewport = new ChatViewport(() => items);
    const scroller = fakeScroller(800, true);
    const detach = viewport.scroller(scroller.element);
    void viewport.window;
    viewport.toBottom();
    expect(scroller.element.scrollTop).toBe(99_200);
    // The reader scrolls up; the messages turn out shorter than estimated, and the content with them.
    scroller.dispatch(new Event("wheel"));
    scroller.scrollTo(50_000);
    expect(viewport.stickToBottom).toBe(false);
    (scroller.element as { scrollHeight: number }).scrollHeight = 60_000;

    // The last message is revealed (the approval shortcut): centring it puts the view at the end.
    const last = {
      getBoundingClientRect: () => ({ top: 600, bottom: 700 }) as DOMRect,
      scrollIntoView: () => (scroller.element.scrollTop = Number.MAX_SAFE_INTEGER),
    } as unknown as HTMLElement;
    await viewport.reveal(
      items.length - 1,
      async () => undefined,
      () => last,
    );
    expect(scroller.element.scrollTop).toBe(59_200);
    expect(viewport.stickToBottom).toBe(true);

    // Its button is focused, and heights measured below grow the content; the view moves down onto them.
    // Below where the view last followed from before the reveal (99,200), yet not a move up: it follows on.
    scroller.dispatch(new Event("focusin"));
    (scroller.element as { scrollHeight: number }).scrollHeight = 60_100;
    scroller.scrollTo(59_250);
    expect(viewport.stickToBottom).toBe(true);
    if (typeof detach === "function") detach();
    viewport.destroy();
  });
});
