import { untrack } from "svelte";
import type { Attachment } from "svelte/attachments";
import { HeightIndex } from "../ui/height-index.ts";
import { isReaderScroll, READER_SCROLL_EVENTS } from "./reader-scroll.ts";

/** Taken for a message not rendered yet, until some have been measured. */
const FALLBACK_HEIGHT = 140;
/** Rendered beyond each edge of the view, so scrolling and Tab find messages already there. */
const OVERSCAN_PX = 900;
/**
 * After a jump (the view moved further than its own height: the scrollbar dragged, End, a long fling),
 * every message in the window is new. The ones in view are rendered first, with this much around them,
 * and the rest of the window a frame later, so that one frame does not render both.
 */
const JUMP_OVERSCAN_PX = 150;
/**
 * The first render knows no height and takes each message to be FALLBACK_HEIGHT tall: with the whole
 * window, a session of 10 kB messages rendered a dozen of them (each as tall as the view) to show two or
 * three, and its first render and the frame after it were the longest tasks of a 64 MB import (Chromium
 * trace: 74 and 81 ms). It renders the view's messages with a jump's margin, and the rest of the window
 * two frames after the chat is in the page, once the first have been measured (as after a jump).
 */
const FIRST_OVERSCAN_PX = JUMP_OVERSCAN_PX;
/** How long after the reader's own scrolling (reader-scroll.ts) a scroll is theirs. */
const READER_SCROLL_WINDOW_MS = 1_000;

/** The items to render (a half-open range) and the space standing in for the others. */
interface RenderWindow {
  start: number;
  end: number;
  before: number;
  after: number;
}

const sameWindow = (a: RenderWindow, b: RenderWindow): boolean =>
  a.start === b.start && a.end === b.end && a.before === b.before && a.after === b.after;

/** Closer than this to the bottom counts as being at the bottom. */
const BOTTOM_SLACK_PX = 48;

/**
 * The chat's scrolling: only the messages in and near the view are rendered (a session of 100,000
 * messages renders what one of 20 does), the view follows new content while the reader is at the bottom
 * and stays put once they scroll up, and a message anywhere can be brought into view. Heights are
 * measured as messages render; items above the view that change height move the scroll position by as
 * much, so what the reader looks at does not jump.
 */
export class ChatViewport<Item extends object> {
  readonly #heights: HeightIndex<Item>;
  readonly #items: () => readonly Item[];
  #scroller: HTMLElement | undefined;
  #list: HTMLElement | undefined;
  #scrollTop = $state(0);
  #viewHeight = $state(800);
  /** Bumped when measured heights move the layout. */
  #layoutVersion = $state(0);
  #stickToBottom = $state(true);
  #overscan = $state(FIRST_OVERSCAN_PX);
  #widening: number | undefined;
  /** Where the last automatic scroll left the view: moving above it is the reader scrolling up. */
  #autoTop = 0;
  /** How tall the content was then: a move up while it is unchanged is no layout's doing. */
  #autoScrollHeight = 0;
  /**
   * The rendered window and the measurements then. The window can change and change back within one
   * layout (its spacer resized before the messages it stands for are in the page), and the browser clamps
   * the view in between: the height then reads the same, yet the move was the layout's.
   */
  #autoWindow: RenderWindow | undefined;
  #autoLayoutVersion = 0;
  /** When the reader last moved the view themselves (wheel, touch, keys, the scrollbar). */
  #readerScrolledAt = Number.NEGATIVE_INFINITY;
  readonly #measurer: ResizeObserver;
  #lastWindow: RenderWindow | undefined;

  /** The items to render and the space standing in for the others. */
  readonly window: RenderWindow = $derived.by(() => {
    void this.#layoutVersion;
    this.#heights.setItems(this.#items());
    const top = Math.max(0, this.#scrollTop - this.#listTop());
    const bottom = top + this.#viewHeight;
    let { start, end } = this.#heights.range(top, bottom, this.#overscan);
    // A jump's narrow margin limits what is rendered anew, not what is already there: messages of the last
    // window that the whole window keeps stay. Dropping them (a scroll of a little more than the view's
    // height, as a fling makes) rendered them again two frames later, when the margin widened back.
    const last = this.#lastWindow;
    // The narrow range lies within the whole window: the last window, where the two meet, is kept as far
    // as the whole window reaches.
    if (this.#overscan < OVERSCAN_PX && last && last.start <= end && last.end >= start) {
      const whole = this.#heights.range(top, bottom, OVERSCAN_PX);
      start = Math.min(start, Math.max(last.start, whole.start));
      end = Math.max(end, Math.min(last.end, whole.end));
    }
    const next = {
      start,
      end,
      before: this.#heights.offsetOf(start),
      after: this.#heights.total - this.#heights.offsetOf(end),
    };
    // The same window as before is the same object: a scroll within it (each showing of a streaming reply
    // follows the bottom) then updates nothing that reads it.
    if (last && sameWindow(last, next)) return last;
    this.#lastWindow = next;
    return next;
  });

  /** `keyOf`: what an item's height is kept by (see `HeightIndex`); the item itself by default. */
  constructor(items: () => readonly Item[], keyOf?: (item: Item) => object) {
    this.#items = items;
    this.#heights = new HeightIndex<Item>(FALLBACK_HEIGHT, keyOf);
    // Every browser has one, as the scroller's attachment assumes too; the unit tests stand one in.
    this.#measurer = new ResizeObserver((entries) => this.#measured(entries));
  }

  /** The reader is at the bottom, and new content keeps the view there. */
  get stickToBottom(): boolean {
    return this.#stickToBottom;
  }

  /** Attach to the scrolling element. */
  readonly scroller: Attachment<HTMLElement> = (element) => {
    this.#scroller = element;
    // The first render's narrow window (FIRST_OVERSCAN_PX) widens as a jump's does.
    this.#narrowForJump();
    this.#viewHeight = element.clientHeight || this.#viewHeight;
    const onscroll = () => this.#onscroll();
    element.addEventListener("scroll", onscroll, { passive: true });
    // Only these move the view on the reader's behalf; any other scroll is the layout moving under it.
    const intent = (event: Event) => {
      if (isReaderScroll(event, element)) this.#readerScrolledAt = performance.now();
    };
    for (const type of READER_SCROLL_EVENTS) element.addEventListener(type, intent, { passive: true });
    const resized = new ResizeObserver(() => {
      this.#viewHeight = element.clientHeight;
      this.#keepAtBottom();
    });
    resized.observe(element);
    return () => {
      element.removeEventListener("scroll", onscroll);
      for (const type of READER_SCROLL_EVENTS) element.removeEventListener(type, intent);
      resized.disconnect();
      this.#scroller = undefined;
    };
  };

  /** Attach to the element holding the list: any growth of it (tokens, Markdown, images) is followed. */
  readonly content: Attachment<HTMLElement> = (element) => {
    this.#list = element;
    const grown = new ResizeObserver(() => this.#keepAtBottom());
    grown.observe(element);
    return () => {
      grown.disconnect();
      this.#list = undefined;
    };
  };

  /**
   * Attach to each rendered item, whose `data-position` is its place in the list: its height is measured.
   * The element is observed once for its life, its position read when it resizes: observing it again (as
   * an attachment that took the position would, on every scroll) makes the browser report every item
   * anew and run another round of layout in that frame.
   */
  readonly measure: Attachment<HTMLElement> = (element) => {
    this.#measurer.observe(element);
    return () => this.#measurer.unobserve(element);
  };

  /** Back to the latest message, following again. */
  toBottom(): void {
    // The jump supersedes the reader's earlier scrolling: the layout settling under it must not read as theirs.
    this.#readerScrolledAt = Number.NEGATIVE_INFINITY;
    this.#stickToBottom = true;
    this.#keepAtBottom();
  }

  /**
   * Scroll the item at `position` into the middle of the view. Its place is estimated first (it may not be
   * rendered), then corrected once it is: `find` returns its element when there is one (chat-reveal.ts).
   */
  async reveal(position: number, settle: () => Promise<void>, find: () => HTMLElement | null): Promise<void> {
    const scroller = this.#scroller;
    if (!scroller) return;
    this.#stickToBottom = false;
    const estimatedTop = () =>
      Math.max(
        0,
        this.#listTop() +
          this.#heights.offsetOf(position) -
          scroller.clientHeight / 2 +
          this.#heights.heightOf(position) / 2,
      );
    // The first move is made at once, in the task that asked for it, and chat-reveal.ts loads after it.
    // Made only once that module had loaded, the move left the message 1,350–1,500 px below the top of the
    // view half a second later (five jumps in a session of 1,000 facts: each shown for a moment, then gone).
    this.#scrollTo(estimatedTop());
    try {
      const { placeInView } = await import("./chat-reveal.ts");
      await placeInView(
        {
          scroller,
          estimatedTop,
          scrollTo: (top) => this.#scrollTo(top),
        },
        settle,
        find,
      );
    } finally {
      // Revealed with the end of the conversation in view (all of it fits, or the item is among the last):
      // there is nothing newer below, so the view goes on following, as a reader's scroll there does, from
      // the bottom as it is now: the place it last followed (#autoTop) may be from before the reveal, and a
      // layout settling under the view would read as a move up from it.
      if (fromBottom(scroller) < BOTTOM_SLACK_PX) this.toBottom();
    }
  }

  destroy(): void {
    this.#measurer.disconnect();
    if (this.#widening !== undefined) cancelAnimationFrame(this.#widening);
  }

  #listTop(): number {
    return this.#list?.offsetTop ?? 0;
  }

  #scrollTo(top: number): void {
    const scroller = this.#scroller;
    if (!scroller) return;
    scroller.scrollTop = top;
    this.#scrollTop = scroller.scrollTop;
  }

  #onscroll(): void {
    const scroller = this.#scroller;
    if (!scroller) return;
    if (Math.abs(scroller.scrollTop - this.#scrollTop) > this.#viewHeight) this.#narrowForJump();
    this.#scrollTop = scroller.scrollTop;
    if (fromBottom(scroller) < BOTTOM_SLACK_PX) this.#stickToBottom = true;
    // Content that grew after an automatic scroll also leaves the view short of the bottom; only a move up
    // from where it was put means someone wants to stay. A move up while the layout changed under it (the
    // rendered window changed, estimated heights gave way to measured ones, the browser clamped a shorter
    // list) is the layout's, unless the reader just scrolled: follow on. A move up over an unchanged layout
    // is the reader's or a tool's on their behalf (find in page, a screen reader): stay.
    else if (scroller.scrollTop < this.#autoTop - 4) {
      const byReader = performance.now() - this.#readerScrolledAt < READER_SCROLL_WINDOW_MS;
      const layoutMoved =
        scroller.scrollHeight !== this.#autoScrollHeight ||
        this.#lastWindow !== this.#autoWindow ||
        untrack(() => this.#layoutVersion) !== this.#autoLayoutVersion;
      if (this.#stickToBottom && layoutMoved && !byReader) this.#keepAtBottom();
      else this.#stickToBottom = false;
    }
  }

  /** Render the view's messages now and the rest of the window on the frame after this one's. */
  #narrowForJump(): void {
    if (typeof requestAnimationFrame !== "function") return;
    this.#overscan = JUMP_OVERSCAN_PX;
    if (this.#widening !== undefined) cancelAnimationFrame(this.#widening);
    // A scroll event runs before this frame's animation callbacks: one frame on is the next frame's.
    this.#widening = requestAnimationFrame(() => {
      this.#widening = requestAnimationFrame(() => {
        this.#widening = undefined;
        this.#overscan = OVERSCAN_PX;
      });
    });
  }

  #keepAtBottom(): void {
    const scroller = this.#scroller;
    if (!scroller || !this.#stickToBottom) return;
    // An empty conversation shows its welcome from the top.
    if (this.#items().length === 0) return;
    scroller.scrollTop = scroller.scrollHeight;
    this.#autoTop = scroller.scrollTop;
    this.#autoScrollHeight = scroller.scrollHeight;
    this.#autoWindow = this.#lastWindow;
    this.#autoLayoutVersion = untrack(() => this.#layoutVersion);
    this.#scrollTop = scroller.scrollTop;
  }

  #measured(entries: ResizeObserverEntry[]): void {
    const scroller = this.#scroller;
    const viewTop = scroller ? scroller.scrollTop - this.#listTop() : 0;
    const measurements: { index: number; height: number }[] = [];
    for (const entry of entries) {
      const element = entry.target as HTMLElement;
      const index = Number(element.dataset["position"]);
      if (!Number.isInteger(index)) continue;
      measurements.push({ index, height: entry.borderBoxSize[0]?.blockSize ?? element.offsetHeight });
    }
    // An item above the view changed height: what the reader looks at moved by as much.
    const { changed, shiftAbove } = this.#heights.measureMany(measurements, viewTop);
    if (!changed) return;
    this.#layoutVersion++;
    if (scroller && shiftAbove !== 0 && !this.#stickToBottom) this.#scrollTo(scroller.scrollTop + shiftAbove);
  }
}

/** How far the scroller's view is from its end. */
function fromBottom(scroller: HTMLElement): number {
  return scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight;
}
