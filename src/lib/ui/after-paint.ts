/**
 * Run `callback` once the page has painted what is in it now: a frame, then a task after it. Work that
 * can wait (a pass over a whole session to mark something in lists already shown) then never holds up
 * the first paint of what needs it. Returns the way to call it off (for an effect's teardown).
 */
export function afterNextPaint(callback: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (typeof requestAnimationFrame !== "function") {
    timer = setTimeout(callback, 0);
    return () => clearTimeout(timer);
  }
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(callback, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}
