/**
 * Bringing a message of the chat into the middle of the view, wherever it is in the conversation: the
 * chat's viewport (chat-viewport.svelte.ts) loads this when a message is first revealed (a fact chosen in
 * the inspector, the approval shortcut), so the first page's JavaScript does not carry it.
 */

/** What placing an item needs of the viewport that renders it. */
export interface RevealPort {
  scroller: HTMLElement;
  /** The scroll position that puts the item in the middle of the view, from the heights known now. */
  estimatedTop(): number;
  /** Scroll there, the viewport taking the new position as its own. */
  scrollTo(top: number): void;
}

/**
 * Keep the item coming into view: the caller has already scrolled to its estimated place (it may not be
 * rendered); as the items around it render and their heights are measured, it is placed again (from the
 * better estimate while it is not rendered, by itself once it is) until it stays in view. `settle` waits
 * for the page to render what the last move asked for; `find` returns the item's element when there is one.
 */
export async function placeInView(
  port: RevealPort,
  settle: () => Promise<void>,
  find: () => HTMLElement | null,
): Promise<void> {
  const { scroller } = port;
  for (let attempt = 0; attempt < 6; attempt++) {
    await settle();
    const element = find();
    if (!element) port.scrollTo(port.estimatedTop());
    else if (attempt > 0 && inView(element, scroller)) return;
    else {
      element.scrollIntoView({ block: "center" });
      port.scrollTo(scroller.scrollTop);
    }
    await nextFrame();
  }
}

function inView(element: HTMLElement, scroller: HTMLElement): boolean {
  const box = element.getBoundingClientRect();
  const view = scroller.getBoundingClientRect();
  return box.bottom > view.top && box.top < view.bottom;
}

/** The next frame, once measurements of what just rendered have come in. */
function nextFrame(): Promise<void> {
  return new Promise((resolve) =>
    typeof requestAnimationFrame === "function"
      ? requestAnimationFrame(() => resolve())
      : setTimeout(resolve, 16),
  );
}
