/**
 * Whether the page has gone a while without scrolling, for work that can wait for it. Work done while idle
 * still runs between a scroll's frames, and its allocations are collected in them: background work that is
 * larger in a larger session (a request body prepared for 100,000 facts) then costs the scroll itself.
 */
export interface ScrollQuiet {
  /** Milliseconds until no scroll will have happened for `quietMs` (0: none has for that long already). */
  untilQuiet(quietMs: number): number;
}

/**
 * Watches `target` for scrolls anywhere inside it (captured: a scroll does not bubble) and for the wheel,
 * which announces a scroll before its event.
 */
export function watchScrolls(target: EventTarget, now: () => number = () => performance.now()): ScrollQuiet {
  let lastScrollAt = Number.NEGATIVE_INFINITY;
  const mark = () => {
    lastScrollAt = now();
  };
  for (const type of ["scroll", "wheel"])
    target.addEventListener(type, mark, { capture: true, passive: true });
  return { untilQuiet: (quietMs) => Math.max(0, lastScrollAt + quietMs - now()) };
}

let pageScrolls: ScrollQuiet | undefined;

/** The page's scrolls, watched from the first time anyone asks (never quiet-blocking outside a browser). */
export function pageScrollQuiet(): ScrollQuiet {
  if (typeof document === "undefined") return { untilQuiet: () => 0 };
  pageScrolls ??= watchScrolls(document);
  return pageScrolls;
}
