/**
 * Run `work` while the page has nothing else to do (or after `timeoutMs` at the latest). Returns the way
 * to call it off (for an effect's teardown).
 */
export function whenIdle(work: () => void, timeoutMs = 2_000): () => void {
  if (typeof requestIdleCallback !== "function") {
    const timer = setTimeout(work, 500);
    return () => clearTimeout(timer);
  }
  const idle = requestIdleCallback(work, { timeout: timeoutMs });
  return () => cancelIdleCallback(idle);
}

/**
 * Fetch a chunk while the page has nothing else to do, so the first use of what it holds does not wait
 * for the network and the compiler. Returns the way to call it off (for an effect's teardown).
 */
export function prefetchWhenIdle(load: () => Promise<unknown>, timeoutMs = 2_000): () => void {
  return whenIdle(() => void load().catch(() => undefined), timeoutMs);
}
