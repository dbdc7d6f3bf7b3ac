/**
 * Run `call` with the global `fetch` answered by `transport`, and only the fetches `call` makes before it
 * returns. pi's `streamProxy` takes no fetch of its own: it calls the global one, synchronously, before
 * its first await. Swapping it for the duration of that one synchronous call reaches exactly that request
 * and nothing else on the page (no other code runs in between). If `call` made no fetch, that order
 * changed: throw rather than let the request reach the network later.
 */
export function withFetch<T>(transport: typeof fetch, call: () => T): T {
  const original = globalThis.fetch;
  let used = false;
  globalThis.fetch = (input, init) => {
    used = true;
    return transport(input, init);
  };
  let result: T;
  try {
    result = call();
  } finally {
    globalThis.fetch = original;
  }
  if (!used) {
    throw new Error(
      "The stream function did not send its request at once, so it cannot be answered in the page. This pi version is not supported by the in-page transport.",
    );
  }
  return result;
}
