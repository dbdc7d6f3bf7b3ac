/**
 * Bringing a message of the chat into the middle of the view, wherever it is in the conversation: the
 * chat's viewport (chat-viewport.svelte.ts) loads this when a message is first revealed (a fact chosen in
 * the inspector, the approval shortcut), so the first page's JavaScript does not carry it.
 */

import { isReaderScroll, READER_SCROLL_EVENTS } from "./reader-scroll.ts";

/** What placing an item needs of the viewport that renders it. */
export interface RevealPort {
  scroller: HTMLElement;
  /** The scroll position that puts the item in the middle of the view, from the heights known now. */
  estimatedTop(): number;
  /** Scroll there, the viewport taking the new position as its own. */
  scrollTo(top: number): void;
}

/** The placement each chat's scroller is running now: only the latest one moves it. */
const latestPlacement = new WeakMap<HTMLElement, object>();
/** At most this many frames (about half a second) of placing: a layout still changing then is left as it is. */
const MOST_FRAMES = 30;
/** Frames the item must stay in the same place, with the content's height unchanged, to count as settled. */
const STILL_FRAMES = 3;

/**
 * Keep the item coming into view: the caller has already scrolled to its estimated place (it may not be
 * rendered); as the items around it render and their heights are measured, it is placed again (from the
 * better estimate while it is not rendered, centred once it is, again whenever it is no longer wholly in
 * view) until the layout around it has settled. Returning as soon as it was first seen in view left it to
 * the measurements still coming in: the approval shortcut then focused a button that the next frame's
 * heights pushed below the view. The reader scrolling ends it at once: the view is theirs from then on; so
 * does a newer reveal in the same chat.
 * `settle` waits for the page to render what the last move asked for; `find` returns the item's element
 * when there is one.
 */
export async function placeInView(
  port: RevealPort,
  settle: () => Promise<void>,
  find: () => HTMLElement | null,
): Promise<void> {
  const { scroller } = port;
  // A newer reveal in the same chat (another fact chosen while this one settles) takes over the view.
  const placement = {};
  latestPlacement.set(scroller, placement);
  const superseded = () => latestPlacement.get(scroller) !== placement;
  let readerScrolled = false;
  const yieldToReader = (event: Event) => {
    if (isReaderScroll(event, scroller)) readerScrolled = true;
  };
  for (const type of READER_SCROLL_EVENTS) scroller.addEventListener(type, yieldToReader, { passive: true });
  try {
    let centred = false;
    let still = 0;
    let lastPlace = "";
    for (let frame = 0; frame < MOST_FRAMES && still < STILL_FRAMES; frame++) {
      await settle();
      if (readerScrolled || superseded()) return;
      const element = find();
      if (!element) {
        port.scrollTo(port.estimatedTop());
        still = 0;
      } else if (!centred || !wellPlaced(element, scroller)) {
        element.scrollIntoView({ block: "center" });
        port.scrollTo(scroller.scrollTop);
        centred = true;
        still = 0;
      } else {
        // Where it is in the view, and how tall everything is: the same for a few frames is settled.
        const place = `${element.getBoundingClientRect().top - scroller.getBoundingClientRect().top}:${scroller.scrollHeight}`;
        still = place === lastPlace ? still + 1 : 1;
        lastPlace = place;
      }
      await nextFrame();
    }
  } finally {
    for (const type of READER_SCROLL_EVENTS) scroller.removeEventListener(type, yieldToReader);
  }
}

/** Wholly in the view, or (taller than it) filling it. */
function wellPlaced(element: HTMLElement, scroller: HTMLElement): boolean {
  const box = element.getBoundingClientRect();
  const view = scroller.getBoundingClientRect();
  const within = box.top >= view.top - 1 && box.bottom <= view.bottom + 1;
  const filling = box.top <= view.top && box.bottom >= view.bottom;
  return within || filling;
}

/** The next frame, once measurements of what just rendered have come in. */
function nextFrame(): Promise<void> {
  return new Promise((resolve) =>
    typeof requestAnimationFrame === "function"
      ? requestAnimationFrame(() => resolve())
      : setTimeout(resolve, 16),
  );
}
