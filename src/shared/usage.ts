import type { Usage } from "@earendil-works/pi-ai";

/** Usage of a message that cost nothing: hand-written replies, examples, errors raised before a model ran. */
export function zeroUsage(): Usage {
  return {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}
