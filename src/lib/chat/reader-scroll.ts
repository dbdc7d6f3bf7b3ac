/** What the reader does to scroll the chat; the viewport and a reveal in progress both yield to it. */
export const READER_SCROLL_EVENTS = ["wheel", "touchmove", "keydown", "pointerdown", "focusin"] as const;
const SCROLL_KEYS = new Set(["PageUp", "PageDown", "ArrowUp", "ArrowDown", "Home", "End", " "]);

/**
 * Whether an event moves the view for the reader: the wheel, a touch, a scrolling key, a press on the
 * scrollbar (on the scroller itself), or focus moving to a message (Tab scrolls it into view, and the view
 * must stay there). A press on a button inside is not one; "Jump to latest" clears it all anyway.
 */
export function isReaderScroll(event: Event, scroller: HTMLElement): boolean {
  if (event.type === "pointerdown") return event.target === scroller;
  if (event.type === "focusin") return event.target !== scroller;
  if (event.type === "keydown") return SCROLL_KEYS.has((event as KeyboardEvent).key);
  return true;
}
