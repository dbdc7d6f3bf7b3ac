/**
 * Which part of a long conversation the chat renders: a window of consecutive items, never more than
 * `max` of them, so the page holds a bounded number of nodes whatever the session's length. The window
 * either follows the latest item (and grows with new ones, shedding the oldest past `max`) or stays
 * where the reader put it.
 */
export interface WindowRange {
  /** The first item shown. */
  start: number;
  /** One past the last item shown (ignored while following: the window then ends at the last item). */
  end: number;
  /** The window ends at the latest item and moves with new ones. */
  following: boolean;
}

export interface WindowLimits {
  /** Items added or shown per step ("show earlier", "show later", the first view). */
  page: number;
  /** The most items rendered at once. */
  max: number;
}

export const CHAT_WINDOW: WindowLimits = { page: 150, max: 450 };

export function latest(count: number, limits: WindowLimits = CHAT_WINDOW): WindowRange {
  return { start: Math.max(0, count - limits.page), end: count, following: true };
}

/** The items shown now, as a half-open range over `count` items. */
export function shown(
  range: WindowRange,
  count: number,
  limits: WindowLimits = CHAT_WINDOW,
): { start: number; end: number } {
  if (range.following) {
    // New items extend the window until it is full; then the oldest leave it. A conversation that got
    // shorter (another branch) still shows its latest page.
    const start = Math.max(count - limits.max, Math.min(range.start, count - limits.page));
    return { start: Math.max(0, start), end: count };
  }
  const end = Math.min(range.end, count);
  return { start: Math.max(0, Math.min(range.start, end - limits.page)), end };
}

/** One page more above; the far end gives way once the window is full. */
export function earlier(range: WindowRange, count: number, limits: WindowLimits = CHAT_WINDOW): WindowRange {
  const now = shown(range, count, limits);
  const start = Math.max(0, now.start - limits.page);
  if (now.end - start <= limits.max) return { ...range, start, end: now.end };
  return { start, end: start + limits.max, following: false };
}

/** One page more below; reaching the latest item makes the window follow again. */
export function later(range: WindowRange, count: number, limits: WindowLimits = CHAT_WINDOW): WindowRange {
  const now = shown(range, count, limits);
  const end = Math.min(count, now.end + limits.page);
  const start = Math.max(now.start, end - limits.max);
  return { start, end, following: end === count };
}

/** A window around one item (a fact chosen elsewhere), a page wide. */
export function around(position: number, count: number, limits: WindowLimits = CHAT_WINDOW): WindowRange {
  const start = Math.max(0, Math.min(position - Math.floor(limits.page / 2), count - limits.page));
  const end = Math.min(count, start + limits.page);
  return { start, end, following: end === count };
}
