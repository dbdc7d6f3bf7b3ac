/**
 * Fetch a chunk while the page has nothing else to do, so the first use of what it holds does not wait
 * for the network and the compiler. Returns the way to call it off (for an effect's teardown).
 */
export function prefetchWhenIdle(load: () => Promise<unknown>, timeoutMs = 2_000): () => void {
  const run = () => void load().catch(() => undefined);
  if (typeof requestIdleCallback !== "function") {
    const timer = setTimeout(run, 500);
    return () => clearTimeout(timer);
  }
  const idle = requestIdleCallback(run, { timeout: timeoutMs });
  return () => cancelIdleCallback(idle);
}
